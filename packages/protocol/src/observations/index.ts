import { type Static, type TProperties, Type } from '@sinclair/typebox';
import { TaskItem } from '../actions/builtins.ts';
import { FILE_EDITOR_COMMANDS } from '../actions/files.ts';
import { MessageContent } from '../content.ts';
import { kindShape, nullable, ref, strictObject, stringEnum, taggedUnion, withDefault } from '../schema/builders.ts';

/**
 * What a tool call returned. Every observation has `content` (what the LLM reads) and `is_error`, plus the
 * tool's own structured fields.
 */

function observation<K extends string, P extends TProperties>(kind: K, fields: P, description: string) {
  return kindShape(
    kind,
    {
      content: withDefault(Type.Array(ref(MessageContent), { description: 'What the LLM reads.' }), []),
      is_error: withDefault(Type.Boolean(), false),
      ...fields,
    },
    { description },
  );
}

export const MCPToolObservation = observation(
  'MCPToolObservation',
  { tool_name: Type.String({ description: 'The MCP tool that was called.' }) },
  'The result of an MCP tool call.',
);

export const FinishObservation = observation('FinishObservation', {}, 'The run ended; `content` is the final message.');
export const ThinkObservation = observation('ThinkObservation', {}, 'The thought was logged.');

export const BrowserObservation = observation(
  'BrowserObservation',
  {
    screenshot_data: Type.Optional(nullable(Type.String({ description: 'A PNG screenshot, base64-encoded.' }))),
    full_output_save_dir: Type.Optional(
      nullable(Type.String({ description: 'Where the untruncated output was saved.' })),
    ),
  },
  'The result of a browser action.',
);

function fileEditorObservationFields() {
  return {
    command: stringEnum(FILE_EDITOR_COMMANDS),
    path: Type.Optional(nullable(Type.String())),
    prev_exist: withDefault(Type.Boolean({ description: 'Whether the file existed before.' }), true),
    old_content: Type.Optional(nullable(Type.String())),
    new_content: Type.Optional(nullable(Type.String())),
  };
}

export const FileEditorObservation = observation(
  'FileEditorObservation',
  fileEditorObservationFields(),
  'The result of a file editor command.',
);

export const PlanningFileEditorObservation = observation(
  'PlanningFileEditorObservation',
  fileEditorObservationFields(),
  'The result of a planning file editor command.',
);

export const EditObservation = observation(
  'EditObservation',
  {
    file_path: Type.Optional(nullable(Type.String())),
    is_new_file: withDefault(Type.Boolean(), false),
    replacements_made: withDefault(Type.Integer({ minimum: 0 }), 0),
    old_content: Type.Optional(nullable(Type.String())),
    new_content: Type.Optional(nullable(Type.String())),
  },
  'The result of an edit.',
);

export const FileEntry = strictObject(
  'FileEntry',
  {
    name: Type.String(),
    path: Type.String(),
    is_directory: Type.Boolean(),
    size: Type.Integer({ minimum: 0 }),
    modified_time: Type.String({ description: 'ISO-8601 timestamp.' }),
  },
  { description: 'One entry of a directory listing.' },
);

export const ListDirectoryObservation = observation(
  'ListDirectoryObservation',
  {
    dir_path: Type.Optional(nullable(Type.String())),
    entries: withDefault(Type.Array(ref(FileEntry)), []),
    total_count: withDefault(Type.Integer({ minimum: 0 }), 0),
    is_truncated: withDefault(Type.Boolean(), false),
  },
  'A directory listing.',
);

const lineRange = Type.Unsafe<[number, number]>({
  type: 'array',
  prefixItems: [{ type: 'integer' }, { type: 'integer' }],
  items: false,
  minItems: 2,
  maxItems: 2,
  description: '`[first, last]` line shown.',
});

export const ReadFileObservation = observation(
  'ReadFileObservation',
  {
    file_path: Type.String(),
    file_content: withDefault(Type.String(), ''),
    is_truncated: withDefault(Type.Boolean(), false),
    lines_shown: Type.Optional(nullable(lineRange)),
    total_lines: Type.Optional(nullable(Type.Integer({ minimum: 0 }))),
  },
  'The content of a file.',
);

export const WriteFileObservation = observation(
  'WriteFileObservation',
  {
    file_path: Type.Optional(nullable(Type.String())),
    is_new_file: withDefault(Type.Boolean(), false),
    old_content: Type.Optional(nullable(Type.String())),
    new_content: Type.Optional(nullable(Type.String())),
  },
  'The result of writing a file.',
);

export const GlobObservation = observation(
  'GlobObservation',
  {
    files: Type.Array(Type.String()),
    pattern: Type.String(),
    search_path: Type.String(),
    truncated: withDefault(Type.Boolean(), false),
  },
  'Files matching a glob pattern.',
);

export const GrepObservation = observation(
  'GrepObservation',
  {
    matches: Type.Array(Type.String(), { description: 'Paths of the files that match.' }),
    pattern: Type.String(),
    search_path: Type.String(),
    include_pattern: Type.Optional(nullable(Type.String())),
    truncated: withDefault(Type.Boolean(), false),
  },
  'Files whose content matches a pattern.',
);

export const TaskTrackerObservation = observation(
  'TaskTrackerObservation',
  {
    command: stringEnum(['view', 'plan']),
    task_list: withDefault(Type.Array(ref(TaskItem)), []),
  },
  'The task list.',
);

export const CmdOutputMetadata = strictObject(
  'CmdOutputMetadata',
  {
    exit_code: withDefault(Type.Integer(), -1),
    pid: withDefault(Type.Integer(), -1),
    username: Type.Optional(nullable(Type.String())),
    hostname: Type.Optional(nullable(Type.String())),
    working_dir: Type.Optional(nullable(Type.String())),
    py_interpreter_path: Type.Optional(nullable(Type.String())),
    prefix: withDefault(Type.String(), ''),
    suffix: withDefault(Type.String(), ''),
  },
  { description: 'Facts about the shell after a command.' },
);

export const TerminalObservation = observation(
  'TerminalObservation',
  {
    command: nullable(Type.String()),
    exit_code: Type.Optional(nullable(Type.Integer({ description: '-1 while the command is still running.' }))),
    timeout: withDefault(Type.Boolean({ description: 'The command hit its timeout.' }), false),
    metadata: withDefault(ref(CmdOutputMetadata), { exit_code: -1, pid: -1, prefix: '', suffix: '' }),
    full_output_save_dir: Type.Optional(nullable(Type.String())),
  },
  'The output of a terminal command.',
);

export const observationShapes = [
  MCPToolObservation,
  FinishObservation,
  ThinkObservation,
  BrowserObservation,
  FileEditorObservation,
  EditObservation,
  ListDirectoryObservation,
  ReadFileObservation,
  WriteFileObservation,
  GlobObservation,
  GrepObservation,
  PlanningFileEditorObservation,
  TaskTrackerObservation,
  TerminalObservation,
] as const;

export const Observation = taggedUnion('Observation', 'kind', [...observationShapes], {
  description: 'What a tool call returned, selected by `kind`.',
});
export type Observation = Static<typeof Observation>;
export type ObservationKind = Observation['kind'];

/** The observation of the given kind. */
export type ObservationOf<K extends ObservationKind> = Extract<Observation, { kind: K }>;
