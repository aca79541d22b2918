import { describe, it } from 'vitest';
import { createEditTool } from '../../src/tools/edit/index.ts';
import { createFileEditorTool } from '../../src/tools/file-editor/index.ts';
import { createFinishTool } from '../../src/tools/finish/index.ts';
import { createGlobTool } from '../../src/tools/glob/index.ts';
import { createGrepTool } from '../../src/tools/grep/index.ts';
import { createListDirectoryTool } from '../../src/tools/list-directory/index.ts';
import { createPlanningFileEditorTool } from '../../src/tools/planning-file-editor/index.ts';
import { createReadFileTool } from '../../src/tools/read-file/index.ts';
import { createTaskTrackerTool } from '../../src/tools/task-tracker/index.ts';
import { createThinkTool } from '../../src/tools/think/index.ts';
import type { Tool } from '../../src/tools/tool.ts';
import { createWriteFileTool } from '../../src/tools/write-file/index.ts';
import { expectWellDefined } from './support.ts';

const TOOLS: ReadonlyArray<readonly [name: string, create: () => Tool, readOnly: boolean]> = [
  ['edit', createEditTool, false],
  ['file_editor', createFileEditorTool, false],
  ['finish', createFinishTool, true],
  ['glob', createGlobTool, true],
  ['grep', createGrepTool, true],
  ['list_directory', createListDirectoryTool, true],
  ['planning_file_editor', createPlanningFileEditorTool, false],
  ['read_file', createReadFileTool, true],
  ['task_tracker', createTaskTrackerTool, false],
  ['think', createThinkTool, true],
  ['write_file', createWriteFileTool, false],
];

describe('the file, search and planning tools', () => {
  it.each(TOOLS)('%s is described for the LLM', (name, create, readOnly) => {
    expectWellDefined(create(), { name, readOnly });
  });
});
