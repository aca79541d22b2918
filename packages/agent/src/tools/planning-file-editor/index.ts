import { join, resolve } from 'node:path';
import type { ActionOf, ObservationOf } from '@bosun/protocol';
import { FILE_EDITOR_DESCRIPTION } from '../file-editor/description.ts';
import { FileEditor } from '../file-editor/editor.ts';
import { runEditorCommand } from '../file-editor/observation.ts';
import { builtInTool } from '../shared/definition.ts';
import { pathKind, writeTextFile } from '../shared/text-file.ts';
import type { Tool, ToolContext } from '../tool.ts';
import { resolveInWorkspace } from '../workspace-path.ts';

type PlanningFileEditorAction = ActionOf<'PlanningFileEditorAction'>;
type PlanningFileEditorObservation = ObservationOf<'PlanningFileEditorObservation'>;

/** The plan file, relative to the workspace (as OpenHands' planning agent). */
export const PLAN_FILE = '.agents_tmp/PLAN.md';

/** The sections a new plan starts with (as OpenHands' planning agent). */
export const PLAN_SECTIONS = [
  'OBJECTIVE',
  'CONTEXT SUMMARY',
  'APPROACH OVERVIEW',
  'IMPLEMENTATION STEPS',
  'TESTING AND VALIDATION',
] as const;

const DESCRIPTION = `${FILE_EDITOR_DESCRIPTION}

RESTRICTIONS OF THE PLANNING FILE EDITOR:
* You can \`view\` any file or directory in the workspace.
* You can EDIT ONLY the plan file, <workspace>/${PLAN_FILE}: \`create\`, \`str_replace\`, \`insert\` and \`undo_edit\` on any other path are refused.
* The plan file is created for you with its section headers (${PLAN_SECTIONS.map((s, i) => `# ${i + 1}. ${s}`).join(', ')}): fill in the sections with \`str_replace\` or \`insert\` rather than creating the file.
* The plan file is read by the agents that carry out the plan.`;

export function planPath(workspace: string): string {
  return join(resolve(workspace), PLAN_FILE);
}

/** The content of a new plan file: one header per section. */
export function planTemplate(): string {
  return PLAN_SECTIONS.map((section, index) => `# ${index + 1}. ${section}\n`).join('\n');
}

/**
 * The `planning_file_editor` tool: the file editor, able to view anything in the workspace but to edit only
 * `<workspace>/.agents_tmp/PLAN.md`, which it creates with the plan's section headers on first use.
 */
export function createPlanningFileEditorTool(): Tool<PlanningFileEditorAction, PlanningFileEditorObservation> {
  const editor = new FileEditor({
    refuseEdit: (path, command, workspace) => {
      const plan = planPath(workspace);
      if (path === plan) return undefined;
      return (
        `Operation '${command}' is not allowed on file '${path}'. ` +
        `The planning file editor can only edit the plan file: ${plan}. Use \`view\` to read other files.`
      );
    },
  });
  const initialized = new Set<string>();
  return builtInTool('planning_file_editor', 'PlanningFileEditor', {
    description: DESCRIPTION,
    hints: { readOnly: false, destructive: false, idempotent: false },
    execute: async ({ kind: _kind, ...args }, context) => {
      await ensurePlan(context, initialized);
      return runEditorCommand(editor, 'PlanningFileEditorObservation', args, context);
    },
  });
}

/** Creates the plan file with its headers the first time the tool runs in a workspace, unless it exists. */
async function ensurePlan(context: ToolContext, initialized: Set<string>): Promise<void> {
  const plan = planPath(context.workspace);
  if (initialized.has(plan)) return;
  try {
    resolveInWorkspace(context.workspace, plan);
    if ((await pathKind(plan)) === 'missing') await writeTextFile(plan, planTemplate());
    initialized.add(plan);
  } catch {
    // Left to the command, which reports what is wrong with the path.
  }
}
