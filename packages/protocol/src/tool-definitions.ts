import { type Static, type TProperties, Type } from '@sinclair/typebox';
import {
  kindShape,
  namedSchema,
  nullable,
  openObject,
  ref,
  strictObject,
  taggedUnion,
  withDefault,
} from './schema/builders.ts';

/**
 * The tools an agent has, as listed in its `SystemPromptEvent`. `kind` is the tool's class; the LLM-facing
 * function name is `title` (for example `terminal`, `browser_navigate`).
 */

export const ToolAnnotations = strictObject(
  'ToolAnnotations',
  {
    title: Type.Optional(nullable(Type.String())),
    readOnlyHint: withDefault(Type.Boolean({ description: 'The tool does not change its environment.' }), false),
    destructiveHint: withDefault(Type.Boolean({ description: 'The tool may destroy data.' }), true),
    idempotentHint: withDefault(Type.Boolean({ description: 'Repeating a call has no further effect.' }), false),
    openWorldHint: withDefault(Type.Boolean({ description: 'The tool talks to the outside world.' }), true),
  },
  { description: 'Hints about how a tool behaves (MCP tool annotations).' },
);

function toolDefinition<K extends string, P extends TProperties>(kind: K, description: string, extra: P) {
  return kindShape(
    kind,
    {
      title: Type.String({ description: 'The function name the LLM calls.' }),
      description: Type.String({ description: 'What the tool does, as the LLM reads it.' }),
      action_type: Type.String({ description: "The `kind` of the tool's actions." }),
      observation_type: Type.Optional(nullable(Type.String({ description: "The `kind` of the tool's observations." }))),
      annotations: Type.Optional(nullable(ref(ToolAnnotations))),
      meta: Type.Optional(nullable(openObject())),
      ...extra,
    },
    { description },
  );
}

export const MCPTool = namedSchema<{ name: string; inputSchema: Record<string, unknown>; [key: string]: unknown }>({
  $id: 'MCPTool',
  type: 'object',
  description: 'The tool as its MCP server describes it.',
  properties: {
    name: { type: 'string' },
    description: { type: ['string', 'null'] },
    inputSchema: { type: 'object', additionalProperties: true },
  },
  required: ['name', 'inputSchema'],
  additionalProperties: true,
});

export const MCPToolDefinition = toolDefinition('MCPToolDefinition', 'A tool served by an MCP server.', {
  mcp_tool: ref(MCPTool),
});

/** Tool definitions without fields of their own: kind and what it is. */
const PLAIN_TOOLS = {
  FinishTool: 'Ends the run with a final message.',
  ThinkTool: 'Logs a thought.',
  BrowserClickTool: 'Clicks an element of the page.',
  BrowserCloseTabTool: 'Closes a tab.',
  BrowserGetContentTool: 'Reads the page as text.',
  BrowserGetStateTool: "Lists the page's interactive elements.",
  BrowserGetStorageTool: 'Reads cookies and local storage.',
  BrowserGoBackTool: 'Goes back in history.',
  BrowserListTabsTool: 'Lists the open tabs.',
  BrowserNavigateTool: 'Opens a URL.',
  BrowserScrollTool: 'Scrolls the page.',
  BrowserSetStorageTool: 'Restores cookies and local storage.',
  BrowserStartRecordingTool: 'Starts recording the session.',
  BrowserStopRecordingTool: 'Stops recording.',
  BrowserSwitchTabTool: 'Switches to a tab.',
  BrowserToolSet: 'The browser tools as one set.',
  BrowserTypeTool: 'Types text into an input.',
  FileEditorTool: 'Views, creates and edits files.',
  EditTool: 'Replaces text in a file.',
  ListDirectoryTool: 'Lists a directory.',
  ReadFileTool: 'Reads a file.',
  WriteFileTool: 'Writes a file.',
  GlobTool: 'Finds files by name pattern.',
  GrepTool: 'Finds files by content.',
  PlanningFileEditorTool: 'Views files and edits the plan.',
  TaskTrackerTool: 'Keeps a task list.',
  TerminalTool: 'Runs commands in a persistent shell.',
} as const;

type PlainToolKind = keyof typeof PLAIN_TOOLS;

function plainTool<K extends PlainToolKind>(kind: K) {
  return toolDefinition(kind, PLAIN_TOOLS[kind], {});
}

export const FinishTool = plainTool('FinishTool');
export const ThinkTool = plainTool('ThinkTool');
export const BrowserClickTool = plainTool('BrowserClickTool');
export const BrowserCloseTabTool = plainTool('BrowserCloseTabTool');
export const BrowserGetContentTool = plainTool('BrowserGetContentTool');
export const BrowserGetStateTool = plainTool('BrowserGetStateTool');
export const BrowserGetStorageTool = plainTool('BrowserGetStorageTool');
export const BrowserGoBackTool = plainTool('BrowserGoBackTool');
export const BrowserListTabsTool = plainTool('BrowserListTabsTool');
export const BrowserNavigateTool = plainTool('BrowserNavigateTool');
export const BrowserScrollTool = plainTool('BrowserScrollTool');
export const BrowserSetStorageTool = plainTool('BrowserSetStorageTool');
export const BrowserStartRecordingTool = plainTool('BrowserStartRecordingTool');
export const BrowserStopRecordingTool = plainTool('BrowserStopRecordingTool');
export const BrowserSwitchTabTool = plainTool('BrowserSwitchTabTool');
export const BrowserToolSet = plainTool('BrowserToolSet');
export const BrowserTypeTool = plainTool('BrowserTypeTool');
export const FileEditorTool = plainTool('FileEditorTool');
export const EditTool = plainTool('EditTool');
export const ListDirectoryTool = plainTool('ListDirectoryTool');
export const ReadFileTool = plainTool('ReadFileTool');
export const WriteFileTool = plainTool('WriteFileTool');
export const GlobTool = plainTool('GlobTool');
export const GrepTool = plainTool('GrepTool');
export const PlanningFileEditorTool = plainTool('PlanningFileEditorTool');
export const TaskTrackerTool = plainTool('TaskTrackerTool');
export const TerminalTool = plainTool('TerminalTool');

export const toolDefinitionShapes = [
  MCPToolDefinition,
  FinishTool,
  ThinkTool,
  BrowserClickTool,
  BrowserCloseTabTool,
  BrowserGetContentTool,
  BrowserGetStateTool,
  BrowserGetStorageTool,
  BrowserGoBackTool,
  BrowserListTabsTool,
  BrowserNavigateTool,
  BrowserScrollTool,
  BrowserSetStorageTool,
  BrowserStartRecordingTool,
  BrowserStopRecordingTool,
  BrowserSwitchTabTool,
  BrowserToolSet,
  BrowserTypeTool,
  FileEditorTool,
  EditTool,
  ListDirectoryTool,
  ReadFileTool,
  WriteFileTool,
  GlobTool,
  GrepTool,
  PlanningFileEditorTool,
  TaskTrackerTool,
  TerminalTool,
] as const;

export const ToolDefinition = taggedUnion('ToolDefinition', 'kind', [...toolDefinitionShapes], {
  description: 'A tool available to the agent, selected by `kind`.',
});
export type ToolDefinition = Static<typeof ToolDefinition>;
export type ToolDefinitionKind = ToolDefinition['kind'];
