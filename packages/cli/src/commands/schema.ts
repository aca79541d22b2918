import { protocolJsonSchema } from '@bosun/protocol';
import type { Command } from '../command.ts';

export const schemaCommand: Command = {
  name: 'schema',
  summary: 'Print the JSON Schema (2020-12) of the events',
  usage:
    'Usage: bosun schema\n\nPrints one JSON Schema 2020-12 document with every shape under $defs and Event as its root.',
  async run(_args, io) {
    io.stdout.write(`${JSON.stringify(protocolJsonSchema(), null, 2)}\n`);
    return 0;
  },
};
