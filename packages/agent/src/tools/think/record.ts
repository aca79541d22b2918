import { thinkShapes } from '@bosun/protocol';
import { LOW_RISK } from '../risk-subject.ts';
import { toolRecord } from '../tool-record.ts';
import { createThinkTool } from './index.ts';

/** Every agent has it. */
export const thinkRecord = toolRecord({
  name: 'think',
  always: true,
  shapes: thinkShapes,
  riskSubject: () => LOW_RISK,
  create: () => [createThinkTool()],
});
