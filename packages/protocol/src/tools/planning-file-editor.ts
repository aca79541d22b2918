import { fileEditorTool } from './file-editor.ts';

const planningFileEditor = fileEditorTool('PlanningFileEditor', {
  action: 'View any file; edit only the plan file.',
  observation: 'The result of a planning file editor command.',
  tool: 'Views files and edits the plan.',
});
export const {
  action: PlanningFileEditorAction,
  observation: PlanningFileEditorObservation,
  definition: PlanningFileEditorTool,
} = planningFileEditor;
export const planningFileEditorShapes = planningFileEditor.shapes;
