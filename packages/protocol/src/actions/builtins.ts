import { Type } from '@sinclair/typebox';
import { kindShape, openObject, ref, strictObject, stringEnum, withDefault } from '../schema/builders.ts';

/** Actions of the built-in tools: finish, think, the task tracker and MCP tools. */

export const FinishAction = kindShape(
  'FinishAction',
  { message: Type.String({ description: 'Final message to send to the user.' }) },
  { description: 'End the run with a final message.' },
);

export const ThinkAction = kindShape(
  'ThinkAction',
  { thought: Type.String({ description: 'The thought to log.' }) },
  { description: 'Think out loud; changes nothing.' },
);

export const MCPToolAction = kindShape(
  'MCPToolAction',
  { data: withDefault(openObject({ description: "The MCP tool's arguments (validated by the tool)." }), {}) },
  { description: 'A call of an MCP tool.' },
);

export const TaskItem = strictObject(
  'TaskItem',
  {
    title: Type.String({ description: 'What the task is.' }),
    notes: withDefault(Type.String(), ''),
    status: withDefault(stringEnum(['todo', 'in_progress', 'done']), 'todo'),
  },
  { description: 'One task of the task list.' },
);

export const TaskTrackerAction = kindShape(
  'TaskTrackerAction',
  {
    command: withDefault(stringEnum(['view', 'plan'], { description: '`plan` replaces the whole list.' }), 'view'),
    task_list: withDefault(Type.Array(ref(TaskItem)), []),
  },
  { description: 'View or replace the task list.' },
);
