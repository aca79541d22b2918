import { type Static, Type } from '@sinclair/typebox';
import { kindShape, namedEnum, nullable, ref, strictObject, taggedUnion, withDefault } from '../schema/builders.ts';

/**
 * Shell commands run by the agent server outside any conversation (OpenHands' `/api/bash`): a command is
 * recorded as a `BashCommand` event, its output as `BashOutput` events in `order`, the last one with the exit code.
 */

const HEX_ID = Type.String({ pattern: '^[0-9a-f]{32}$', description: 'A UUID as 32 hex digits (no dashes).' });

const commandFields = {
  command: Type.String({ minLength: 1, maxLength: 1_000_000, description: 'Run with `bash -c`.' }),
  cwd: Type.Optional(
    nullable(
      Type.String({
        minLength: 1,
        description: "An absolute directory inside the server's workspace (default: the workspace itself).",
      }),
    ),
  ),
  timeout: withDefault(
    Type.Integer({
      minimum: 1,
      maximum: 86_400,
      description: 'Seconds before the command is stopped (SIGTERM, then SIGKILL a second later); exit code -1.',
    }),
    300,
  ),
};

export const ExecuteBashRequest = strictObject(
  'ExecuteBashRequest',
  'A command to run in its own process group, with the server’s environment less its secrets.',
  commandFields,
);
export type ExecuteBashRequest = Static<typeof ExecuteBashRequest>;

export const BashCommand = kindShape('BashCommand', 'A command that was started.', {
  ...commandFields,
  cwd: nullable(Type.String(), { description: 'The directory the command runs in.' }),
  id: HEX_ID,
  timestamp: Type.String({ format: 'date-time', description: 'When it started (UTC).' }),
});
export type BashCommand = Static<typeof BashCommand>;

export const BashOutput = kindShape(
  'BashOutput',
  'Output of a command: a chunk of at most 1 MiB of each stream; the last one has the exit code.',
  {
    id: HEX_ID,
    timestamp: Type.String({ format: 'date-time', description: 'When it was recorded (UTC).' }),
    command_id: HEX_ID,
    order: Type.Integer({ minimum: 0, description: 'The place of this output among the command’s, from 0.' }),
    exit_code: nullable(
      Type.Integer({ description: 'Null while the command runs; -1 when it timed out or could not run.' }),
    ),
    stdout: nullable(Type.String()),
    stderr: nullable(Type.String()),
  },
);
export type BashOutput = Static<typeof BashOutput>;

export const BashEvent = taggedUnion('BashEvent', 'A command started, or a chunk of its output.', 'kind', [
  BashCommand,
  BashOutput,
]);
export type BashEvent = Static<typeof BashEvent>;

export const BashEventSortOrder = namedEnum(
  'BashEventSortOrder',
  'The order of bash events: oldest first, or newest first.',
  ['TIMESTAMP', 'TIMESTAMP_DESC'],
);
export type BashEventSortOrder = Static<typeof BashEventSortOrder>;

export const BashEventPage = strictObject('BashEventPage', 'A page of bash events.', {
  items: Type.Array(ref(BashEvent)),
  next_page_id: nullable(Type.String({ description: 'The id of the first event of the next page.' })),
});
export type BashEventPage = Static<typeof BashEventPage>;

export const BashEventSearch = Type.Object(
  {
    kind__eq: Type.Optional(Type.Union([Type.Literal('BashCommand'), Type.Literal('BashOutput')])),
    command_id__eq: Type.Optional(
      Type.String({ pattern: '^[0-9a-fA-F-]{32,36}$', description: 'The command (32 hex digits or a dashed UUID).' }),
    ),
    timestamp__gte: Type.Optional(Type.String({ format: 'date-time' })),
    timestamp__lt: Type.Optional(Type.String({ format: 'date-time' })),
    order__gt: Type.Optional(Type.Integer({ description: 'Only BashOutput events with a greater `order`.' })),
    sort_order: withDefault(ref(BashEventSortOrder), 'TIMESTAMP'),
    page_id: Type.Optional(Type.String({ description: 'A `next_page_id` of a previous page.' })),
    limit: withDefault(Type.Integer({ minimum: 1, maximum: 100 }), 100),
  },
  { additionalProperties: false },
);
export type BashEventSearch = Static<typeof BashEventSearch>;

export const ClearedBashEvents = strictObject('ClearedBashEvents', 'How many bash events were cleared.', {
  cleared_count: Type.Integer({ minimum: 0 }),
});
export type ClearedBashEvents = Static<typeof ClearedBashEvents>;
