import { globShapes } from '@bosun/protocol';
import { LOW_RISK } from '../risk-subject.ts';
import { toolRecord } from '../tool-record.ts';
import { createGlobTool } from './index.ts';

export const globRecord = toolRecord({
  name: 'glob',
  shapes: globShapes,
  riskSubject: () => LOW_RISK,
  create: () => [createGlobTool()],
});
