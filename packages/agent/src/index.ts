export { llmParameters } from './tools/parameters.ts';
export type { Tool, ToolContext } from './tools/tool.ts';
export { resolveInWorkspace, ToolInputError } from './tools/workspace-path.ts';
