import { Type } from '@sinclair/typebox';
import { nullable, ref, strictObject, withDefault } from '../schema/builders.ts';
import { action, observation, singleTool, toolDefinition } from './shapes.ts';

export const TerminalAction = action('TerminalAction', 'Run a command in a persistent shell.', {
  command: Type.String({
    description:
      'The command to run. Empty reads more output of a running command; with `is_input`, text or a special key (`C-c`, `C-d`, `UP`, `ENTER`, ...) for the running process.',
  }),
  is_input: withDefault(Type.Boolean({ description: 'Send `command` as input to the running process.' }), false),
  timeout: Type.Optional(
    nullable(Type.Number({ minimum: 0, description: 'Hard timeout in seconds; without it a soft timeout applies.' })),
  ),
  reset: withDefault(Type.Boolean({ description: 'Restart the shell before running the command.' }), false),
});

export const CmdOutputMetadata = strictObject('CmdOutputMetadata', 'Facts about the shell after a command.', {
  exit_code: withDefault(Type.Integer(), -1),
  pid: withDefault(Type.Integer(), -1),
  username: Type.Optional(nullable(Type.String())),
  hostname: Type.Optional(nullable(Type.String())),
  working_dir: Type.Optional(nullable(Type.String())),
  py_interpreter_path: Type.Optional(nullable(Type.String())),
  prefix: withDefault(Type.String(), ''),
  suffix: withDefault(Type.String(), ''),
});

export const TerminalObservation = observation('TerminalObservation', 'The output of a terminal command.', {
  command: nullable(Type.String()),
  exit_code: Type.Optional(nullable(Type.Integer({ description: '-1 while the command is still running.' }))),
  timeout: withDefault(Type.Boolean({ description: 'The command hit its timeout.' }), false),
  metadata: withDefault(ref(CmdOutputMetadata), { exit_code: -1, pid: -1, prefix: '', suffix: '' }),
  full_output_save_dir: Type.Optional(nullable(Type.String())),
});

export const TerminalTool = toolDefinition('TerminalTool', 'Runs commands in a persistent shell.');

export const terminalShapes = singleTool(TerminalAction, TerminalObservation, TerminalTool, [CmdOutputMetadata]);
