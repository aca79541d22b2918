import type { ToolSpec, ValidationError } from '@bosun/protocol';
import { createBrowserToolSet } from './browser/tool-set.ts';
import { createEditTool } from './edit/index.ts';
import { createFileEditorTool } from './file-editor/index.ts';
import { createFinishTool } from './finish/index.ts';
import { createGlobTool } from './glob/index.ts';
import { createGrepTool } from './grep/index.ts';
import { createListDirectoryTool } from './list-directory/index.ts';
import { createPlanningFileEditorTool } from './planning-file-editor/index.ts';
import { createReadFileTool } from './read-file/index.ts';
import { createTaskTrackerTool } from './task-tracker/index.ts';
import { createTerminalTool } from './terminal/terminal-tool.ts';
import { createThinkTool } from './think/index.ts';
import type { Tool } from './tool.ts';
import { createWriteFileTool } from './write-file/index.ts';

export interface ToolsetOptions {
  /**
   * Environment the terminal exports on top of a clean one (the conversation's secrets). A function is read
   * before every command, so variables added later reach a shell that is already running.
   */
  env?: Record<string, string> | (() => Record<string, string>);
}

type Factory = (params: Record<string, unknown>, options: ToolsetOptions) => Tool[];

/** Tools by the registry names agents list in `agent.tools` (OpenHands' names). */
const REGISTRY: Record<string, Factory> = {
  terminal: (params, options) => [
    createTerminalTool({
      ...(params.soft_timeout_seconds !== undefined
        ? { softTimeoutMs: Number(params.soft_timeout_seconds) * 1000 }
        : {}),
      ...(options.env ? { env: options.env } : {}),
    }),
  ],
  file_editor: () => [createFileEditorTool()],
  planning_file_editor: () => [createPlanningFileEditorTool()],
  read_file: () => [createReadFileTool()],
  write_file: () => [createWriteFileTool()],
  edit: () => [createEditTool()],
  list_directory: () => [createListDirectoryTool()],
  glob: () => [createGlobTool()],
  grep: () => [createGrepTool()],
  task_tracker: () => [createTaskTrackerTool()],
  // One Chromium per tool set, i.e. per conversation; started on the first browser action.
  browser_tool_set: (params) =>
    createBrowserToolSet(
      params.navigation_timeout_seconds !== undefined
        ? { navigationTimeoutMs: Number(params.navigation_timeout_seconds) * 1000 }
        : {},
    ),
};

/**
 * The `params` each tool reads, all durations in seconds. Other keys are ignored: clients written for OpenHands
 * send parameters Bosun has no use for.
 */
const SECONDS_PARAMS: Record<string, string[]> = {
  terminal: ['soft_timeout_seconds'],
  browser_tool_set: ['navigation_timeout_seconds'],
};

/** Built-in tools by class name, as `include_default_tools` lists them; `finish` and `think` are always there. */
const BUILT_INS: Record<string, () => Tool> = {
  FinishTool: () => createFinishTool(),
  ThinkTool: () => createThinkTool(),
};

export const TOOL_NAMES = Object.keys(REGISTRY);

export class UnknownToolError extends Error {}

/** What is wrong with the tools an agent names: unknown names, and parameters of the wrong type. */
export function toolSpecProblems(specs: ToolSpec[], loc: (string | number)[]): ValidationError[] {
  return specs.flatMap((spec, index): ValidationError[] => {
    if (!REGISTRY[spec.name]) {
      return [
        {
          loc: [...loc, index, 'name'],
          msg: `Unknown tool '${spec.name}'; available tools: ${TOOL_NAMES.join(', ')}`,
          type: 'value_error',
        },
      ];
    }
    return (SECONDS_PARAMS[spec.name] ?? []).flatMap((name) => {
      const value = spec.params[name];
      if (value === undefined || (typeof value === 'number' && Number.isFinite(value) && value > 0)) return [];
      return [
        {
          loc: [...loc, index, 'params', name],
          msg: `Input should be a number of seconds greater than 0, got ${JSON.stringify(value)}`,
          type: 'greater_than',
        },
      ];
    });
  });
}

/** The tools of an agent: those its spec names, then the built-ins. Unknown names are an error. */
export function createToolset(specs: ToolSpec[], options: ToolsetOptions = {}): Tool[] {
  const tools: Tool[] = [];
  for (const spec of specs) {
    const factory = REGISTRY[spec.name];
    if (!factory) {
      throw new UnknownToolError(`Unknown tool '${spec.name}'. Available tools: ${TOOL_NAMES.join(', ')}.`);
    }
    tools.push(...factory(spec.params, options));
  }
  for (const create of Object.values(BUILT_INS)) tools.push(create());
  const seen = new Set<string>();
  return tools.filter((tool) => !seen.has(tool.name) && seen.add(tool.name));
}
