import { Type } from '@sinclair/typebox';
import { kindShape, nullable, withDefault } from '../schema/builders.ts';

export const TerminalAction = kindShape(
  'TerminalAction',
  {
    command: Type.String({
      description:
        'The command to run. Empty reads more output of a running command; with `is_input`, text or a special key (`C-c`, `C-d`, `UP`, `ENTER`, ...) for the running process.',
    }),
    is_input: withDefault(Type.Boolean({ description: 'Send `command` as input to the running process.' }), false),
    timeout: Type.Optional(
      nullable(Type.Number({ minimum: 0, description: 'Hard timeout in seconds; without it a soft timeout applies.' })),
    ),
    reset: withDefault(Type.Boolean({ description: 'Restart the shell before running the command.' }), false),
  },
  { description: 'Run a command in a persistent shell.' },
);
