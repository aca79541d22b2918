import type { ActionKind, ToolActionKindOf } from '@bosun/protocol';
import { browserRecord } from './browser/record.ts';
import { editRecord } from './edit/record.ts';
import { fileEditorRecord } from './file-editor/record.ts';
import { finishRecord } from './finish/record.ts';
import { globRecord } from './glob/record.ts';
import { grepRecord } from './grep/record.ts';
import { listDirectoryRecord } from './list-directory/record.ts';
import { planningFileEditorRecord } from './planning-file-editor/record.ts';
import { readFileRecord } from './read-file/record.ts';
import { taskTrackerRecord } from './task-tracker/record.ts';
import { terminalRecord } from './terminal/record.ts';
import { thinkRecord } from './think/record.ts';
import { writeFileRecord } from './write-file/record.ts';

/**
 * Bosun's tools, one record each (its folder's `record.ts`). The registry lists them in this order
 * (`GET /api/tools`); the `always` ones come last in every agent's tools.
 */
export const TOOL_RECORDS = [
  terminalRecord,
  fileEditorRecord,
  planningFileEditorRecord,
  readFileRecord,
  writeFileRecord,
  editRecord,
  listDirectoryRecord,
  globRecord,
  grepRecord,
  taskTrackerRecord,
  browserRecord,
  finishRecord,
  thinkRecord,
] as const;

/**
 * Every action kind of the wire model has a record, hence a risk rule, except MCPToolAction: MCP tools come from
 * the agent's MCP servers (and `invoke_skill` borrows their shapes), which the rules know nothing of. A kind
 * without a record fails to compile here, naming the kind.
 */
type WithoutRecord = Exclude<ActionKind, ToolActionKindOf<(typeof TOOL_RECORDS)[number]['shapes']> | 'MCPToolAction'>;
export const EVERY_ACTION_KIND_HAS_A_RECORD: [WithoutRecord] extends [never] ? true : WithoutRecord = true;
