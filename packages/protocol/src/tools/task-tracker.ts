import { Type } from '@sinclair/typebox';
import { ref, strictObject, stringEnum, withDefault } from '../schema/builders.ts';
import { action, observation, singleTool, toolDefinition } from './shapes.ts';

export const TaskItem = strictObject('TaskItem', 'One task of the task list.', {
  title: Type.String({ description: 'What the task is.' }),
  notes: withDefault(Type.String(), ''),
  status: withDefault(stringEnum(['todo', 'in_progress', 'done']), 'todo'),
});

export const TaskTrackerAction = action('TaskTrackerAction', 'View or replace the task list.', {
  command: withDefault(stringEnum(['view', 'plan'], { description: '`plan` replaces the whole list.' }), 'view'),
  task_list: withDefault(Type.Array(ref(TaskItem)), []),
});

export const TaskTrackerObservation = observation('TaskTrackerObservation', 'The task list.', {
  command: stringEnum(['view', 'plan']),
  task_list: withDefault(Type.Array(ref(TaskItem)), []),
});

export const TaskTrackerTool = toolDefinition('TaskTrackerTool', 'Keeps a task list.');

export const taskTrackerShapes = singleTool(TaskTrackerAction, TaskTrackerObservation, TaskTrackerTool, [TaskItem]);
