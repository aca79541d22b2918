import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ActionOf } from '@bosun/protocol';
import { describe, expect } from 'vitest';
import { TASKS_FILE, createTaskTrackerTool } from '../../src/tools/task-tracker/index.ts';
import { expectError, textOf, toolTest } from './support.ts';

type Args = Omit<ActionOf<'TaskTrackerAction'>, 'kind'>;

const it = toolTest(createTaskTrackerTool, (act) => (args: Args) => act({ kind: 'TaskTrackerAction', ...args }));

const TASKS: Args['task_list'] = [
  { title: 'Reproduce the bug', notes: 'see issue 12', status: 'done' },
  { title: 'Fix the parser', notes: '', status: 'in_progress' },
  { title: 'Add tests', notes: 'edge cases:\nempty input', status: 'todo' },
];

describe('task_tracker', () => {
  it('says there is no list yet', async ({ run }) => {
    expect(await run({ command: 'view', task_list: [] })).toMatchObject({
      is_error: false,
      command: 'view',
      task_list: [],
      content: [{ type: 'text', text: 'No task list found. Use the "plan" command to create one.' }],
    });
  });

  it('replaces the list with plan, persists it to TASKS.json and renders it readably', async ({ box, run }) => {
    const planned = await run({ command: 'plan', task_list: TASKS });
    expect(planned).toMatchObject({ is_error: false, command: 'plan', task_list: TASKS });
    const rendered = [
      '# Task List (1 todo, 1 in progress, 1 done)',
      '',
      '1. [done] Reproduce the bug',
      '   see issue 12',
      '2. [in progress] Fix the parser',
      '3. [todo] Add tests',
      '   edge cases:',
      '   empty input',
    ].join('\n');
    expect(textOf(planned)).toBe(`Task list has been updated with 3 item(s).\n\n${rendered}`);
    expect(JSON.parse(await readFile(join(box.stateDir, TASKS_FILE), 'utf8'))).toEqual(TASKS);
    const viewed = await run({ command: 'view', task_list: [] });
    expect(viewed).toMatchObject({ command: 'view', task_list: TASKS });
    expect(textOf(viewed)).toBe(rendered);
    await run({ command: 'plan', task_list: [{ title: 'Only task', notes: '', status: 'todo' }] });
    expect((await run({ command: 'view', task_list: [] })).task_list).toEqual([
      { title: 'Only task', notes: '', status: 'todo' },
    ]);
  });

  it('reads the list a previous tool instance saved (a restarted conversation)', async ({ box, run }) => {
    await run({ command: 'plan', task_list: TASKS });
    const restarted = createTaskTrackerTool();
    const viewed = await restarted.execute({ kind: 'TaskTrackerAction', command: 'view', task_list: [] }, box.context);
    expect(viewed.task_list).toEqual(TASKS);
  });

  it('clears the list with an empty plan', async ({ run }) => {
    await run({ command: 'plan', task_list: TASKS });
    expect(textOf(await run({ command: 'plan', task_list: [] }))).toBe('Task list has been updated with 0 item(s).');
    expect((await run({ command: 'view', task_list: [] })).task_list).toEqual([]);
  });

  it('reports an untitled task and a corrupt saved list as errors', async ({ box, run }) => {
    const untitled = await run({ command: 'plan', task_list: [{ title: '  ', notes: '', status: 'todo' }] });
    expect(untitled.is_error).toBe(true);
    expect(textOf(untitled)).toBe('Task 1 has an empty title; every task needs one.');
    await run({ command: 'plan', task_list: TASKS });
    await writeFile(join(box.stateDir, TASKS_FILE), '[{"title": 3}]');
    const corrupt = await run({ command: 'view', task_list: [] });
    expectError(corrupt, 'is not a valid task list; use the "plan" command to replace it');
    expect((await run({ command: 'plan', task_list: TASKS })).is_error).toBe(false);
  });
});
