import { writeFileShapes } from '@bosun/protocol';
import { toolRecord } from '../tool-record.ts';
import { createWriteFileTool } from './index.ts';

export const writeFileRecord = toolRecord({
  name: 'write_file',
  shapes: writeFileShapes,
  riskSubject: (action) => ({ kind: 'write', path: action.file_path }),
  create: () => [createWriteFileTool()],
});
