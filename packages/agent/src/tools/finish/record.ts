import { finishShapes } from '@bosun/protocol';
import { LOW_RISK } from '../risk-subject.ts';
import { toolRecord } from '../tool-record.ts';
import { createFinishTool } from './index.ts';

/** Every agent has it. */
export const finishRecord = toolRecord({
  name: 'finish',
  always: true,
  shapes: finishShapes,
  riskSubject: () => LOW_RISK,
  create: () => [createFinishTool()],
});
