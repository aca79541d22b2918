import { readFileShapes } from '@bosun/protocol';
import { LOW_RISK } from '../risk-subject.ts';
import { toolRecord } from '../tool-record.ts';
import { createReadFileTool } from './index.ts';

export const readFileRecord = toolRecord({
  name: 'read_file',
  shapes: readFileShapes,
  riskSubject: () => LOW_RISK,
  create: () => [createReadFileTool()],
});
