import type { ToolSpec } from '@bosun/protocol';
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
      ...(typeof params.soft_timeout_seconds === 'number' ? { softTimeoutMs: params.soft_timeout_seconds * 1000 } : {}),
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
      typeof params.navigation_timeout_seconds === 'number' && params.navigation_timeout_seconds > 0
        ? { navigationTimeoutMs: params.navigation_timeout_seconds * 1000 }
        : {},
    ),
};

/** Built-in tools by class name, as `include_default_tools` lists them; `finish` and `think` are always there. */
const BUILT_INS: Record<string, () => Tool> = {
  FinishTool: () => createFinishTool(),
  ThinkTool: () => createThinkTool(),
};

export const TOOL_NAMES = Object.keys(REGISTRY);

export class UnknownToolError extends Error {}

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
