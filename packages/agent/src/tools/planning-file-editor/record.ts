import { planningFileEditorShapes } from '@bosun/protocol';
import { LOW_RISK } from '../risk-subject.ts';
import { toolRecord } from '../tool-record.ts';
import { createPlanningFileEditorTool } from './index.ts';

export const planningFileEditorRecord = toolRecord({
  name: 'planning_file_editor',
  shapes: planningFileEditorShapes,
  riskSubject: (action) => (action.command === 'view' ? LOW_RISK : { kind: 'write', path: action.path }),
  create: () => [createPlanningFileEditorTool()],
});
