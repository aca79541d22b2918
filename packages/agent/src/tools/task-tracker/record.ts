import { taskTrackerShapes } from '@bosun/protocol';
import { LOW_RISK } from '../risk-subject.ts';
import { toolRecord } from '../tool-record.ts';
import { createTaskTrackerTool } from './index.ts';

export const taskTrackerRecord = toolRecord({
  name: 'task_tracker',
  shapes: taskTrackerShapes,
  riskSubject: () => LOW_RISK,
  create: () => [createTaskTrackerTool()],
});
