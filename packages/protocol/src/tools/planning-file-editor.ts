import { kindShape } from '../schema/builders.ts';
import { fileEditorFields, fileEditorObservationFields } from './file-editor.ts';
import { observation, singleTool, toolDefinition } from './shapes.ts';

export const PlanningFileEditorAction = kindShape('PlanningFileEditorAction', fileEditorFields(), {
  description: 'View any file; edit only the plan file.',
});

export const PlanningFileEditorObservation = observation(
  'PlanningFileEditorObservation',
  fileEditorObservationFields(),
  'The result of a planning file editor command.',
);

export const PlanningFileEditorTool = toolDefinition('PlanningFileEditorTool', 'Views files and edits the plan.');

export const planningFileEditorShapes = singleTool(
  PlanningFileEditorAction,
  PlanningFileEditorObservation,
  PlanningFileEditorTool,
);
