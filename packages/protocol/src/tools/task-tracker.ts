import { Type } from '@sinclair/typebox';
import { kindShape, ref, strictObject, stringEnum, withDefault } from '../schema/builders.ts';
import { observation, singleTool, toolDefinition } from './shapes.ts';

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

export const TaskTrackerObservation = observation(
  'TaskTrackerObservation',
  {
    command: stringEnum(['view', 'plan']),
    task_list: withDefault(Type.Array(ref(TaskItem)), []),
  },
  'The task list.',
);

export const TaskTrackerTool = toolDefinition('TaskTrackerTool', 'Keeps a task list.');

export const taskTrackerShapes = singleTool(TaskTrackerAction, TaskTrackerObservation, TaskTrackerTool, [TaskItem]);
