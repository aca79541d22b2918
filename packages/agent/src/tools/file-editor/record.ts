import { fileEditorShapes } from '@bosun/protocol';
import { LOW_RISK } from '../risk-subject.ts';
import { toolRecord } from '../tool-record.ts';
import { createFileEditorTool } from './index.ts';

export const fileEditorRecord = toolRecord({
  name: 'file_editor',
  shapes: fileEditorShapes,
  riskSubject: (action) => (action.command === 'view' ? LOW_RISK : { kind: 'write', path: action.path }),
  create: () => [createFileEditorTool()],
});
