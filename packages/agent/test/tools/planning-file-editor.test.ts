import { symlink } from 'node:fs/promises';
import type { ActionOf } from '@bosun/protocol';
import { describe, expect } from 'vitest';
import { createPlanningFileEditorTool, planPath, planTemplate } from '../../src/tools/planning-file-editor/index.ts';
import { expectError, textOf, toolTest } from './support.ts';

type Args = Omit<ActionOf<'PlanningFileEditorAction'>, 'kind'>;

const it = toolTest(
  createPlanningFileEditorTool,
  (act) => (args: Args) => act({ kind: 'PlanningFileEditorAction', ...args }),
).extend<{ plan: string }>({ plan: async ({ box }, use) => use(planPath(box.workspace)) });

describe('planning_file_editor', () => {
  it('creates the plan with its section headers on first use and views any file', async ({ box, run, plan }) => {
    const source = await box.write('src/app.ts', 'export const x = 1;\n');
    const observation = await run({ command: 'view', path: source });
    expect(observation).toMatchObject({ kind: 'PlanningFileEditorObservation', is_error: false, path: source });
    expect(textOf(observation)).toContain('export const x = 1;');
    expect(plan).toBe(box.path('.agents_tmp/PLAN.md'));
    expect(await box.read('.agents_tmp/PLAN.md')).toBe(planTemplate());
    expect(planTemplate()).toBe(
      '# 1. OBJECTIVE\n\n# 2. CONTEXT SUMMARY\n\n# 3. APPROACH OVERVIEW\n\n# 4. IMPLEMENTATION STEPS\n\n# 5. TESTING AND VALIDATION\n',
    );
  });

  it('keeps an existing plan', async ({ box, run }) => {
    await box.write('.agents_tmp/PLAN.md', '# my plan\n');
    await run({ command: 'view', path: box.workspace });
    expect(await box.read('.agents_tmp/PLAN.md')).toBe('# my plan\n');
  });

  it('edits the plan: str_replace, insert, undo', async ({ box, run, plan }) => {
    await run({ command: 'view', path: plan });
    const replaced = await run({
      command: 'str_replace',
      path: plan,
      old_str: '# 1. OBJECTIVE\n',
      new_str: '# 1. OBJECTIVE\nShip the feature.\n',
    });
    expect(replaced).toMatchObject({ is_error: false, command: 'str_replace', prev_exist: true });
    expect(await box.read('.agents_tmp/PLAN.md')).toContain('# 1. OBJECTIVE\nShip the feature.\n');
    expect((await run({ command: 'insert', path: plan, insert_line: 0, new_str: 'Title' })).is_error).toBe(false);
    expect((await run({ command: 'undo_edit', path: plan })).is_error).toBe(false);
    expect(await box.read('.agents_tmp/PLAN.md')).toMatch(/^# 1\. OBJECTIVE\nShip the feature\.\n/);
  });

  it('refuses to edit or create any other file', async ({ box, run, plan }) => {
    const other = await box.write('README.md', 'original\n');
    const attempts: Args[] = [
      { command: 'str_replace', path: other, old_str: 'original', new_str: 'changed' },
      { command: 'insert', path: other, insert_line: 0, new_str: 'x' },
      { command: 'create', path: box.path('notes.md'), file_text: 'x' },
      { command: 'undo_edit', path: other },
    ];
    for (const args of attempts) {
      const observation = await run(args);
      expect(observation.is_error, args.command).toBe(true);
      expect(textOf(observation)).toContain(`Operation '${args.command}' is not allowed on file '${args.path}'.`);
      expect(textOf(observation)).toContain(plan);
    }
    expect(await box.read('README.md')).toBe('original\n');
  });

  it('refuses paths outside the workspace, also when viewing', async ({ box, run }) => {
    await symlink(box.outside, box.path('escape'));
    const observation = await run({ command: 'view', path: box.path('escape') });
    expectError(observation, 'outside the workspace');
  });
});
