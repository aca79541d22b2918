import { grepShapes } from '@bosun/protocol';
import { LOW_RISK } from '../risk-subject.ts';
import { toolRecord } from '../tool-record.ts';
import { createGrepTool } from './index.ts';

export const grepRecord = toolRecord({
  name: 'grep',
  shapes: grepShapes,
  riskSubject: () => LOW_RISK,
  create: () => [createGrepTool()],
});
