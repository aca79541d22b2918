import { editShapes } from '@bosun/protocol';
import { toolRecord } from '../tool-record.ts';
import { createEditTool } from './index.ts';

export const editRecord = toolRecord({
  name: 'edit',
  shapes: editShapes,
  riskSubject: (action) => ({ kind: 'write', path: action.file_path }),
  create: () => [createEditTool()],
});
