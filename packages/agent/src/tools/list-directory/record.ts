import { listDirectoryShapes } from '@bosun/protocol';
import { LOW_RISK } from '../risk-subject.ts';
import { toolRecord } from '../tool-record.ts';
import { createListDirectoryTool } from './index.ts';

export const listDirectoryRecord = toolRecord({
  name: 'list_directory',
  shapes: listDirectoryShapes,
  riskSubject: () => LOW_RISK,
  create: () => [createListDirectoryTool()],
});
