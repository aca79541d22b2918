import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ActionOf, type ObservationOf, TaskItem, safeParse } from '@bosun/protocol';
import { textContent } from '../observations.ts';
import { builtInTool } from '../shared/definition.ts';
import { guard } from '../shared/errors.ts';
import type { Tool, ToolContext } from '../tool.ts';
import { ToolInputError } from '../workspace-path.ts';
import { DESCRIPTION } from './description.ts';

type TaskTrackerAction = ActionOf<'TaskTrackerAction'>;
type TaskTrackerObservation = ObservationOf<'TaskTrackerObservation'>;
type Task = TaskTrackerObservation['task_list'][number];

/** Where the task list is kept, in the conversation's state directory (as OpenHands' `TASKS.json`). */
export const TASKS_FILE = 'TASKS.json';

/** The `task_tracker` tool: views or replaces the conversation's task list, persisted in `TASKS.json`. */
export function createTaskTrackerTool(): Tool<TaskTrackerAction, TaskTrackerObservation> {
  return builtInTool('task_tracker', 'TaskTracker', {
    description: DESCRIPTION,
    hints: { readOnly: false, destructive: false, idempotent: true },
    execute: track,
  });
}

async function track(action: TaskTrackerAction, context: ToolContext): Promise<TaskTrackerObservation> {
  const observation = (text: string, taskList: Task[], isError = false): TaskTrackerObservation => ({
    kind: 'TaskTrackerObservation',
    content: textContent(context.mask(text)),
    is_error: isError,
    command: action.command,
    task_list: taskList,
  });
  return guard(
    async () => {
      const file = join(context.stateDir, TASKS_FILE);
      if (action.command === 'plan') {
        const tasks = action.task_list.map((task) => ({ title: task.title, notes: task.notes, status: task.status }));
        const untitled = tasks.findIndex((task) => task.title.trim() === '');
        if (untitled !== -1) throw new ToolInputError(`Task ${untitled + 1} has an empty title; every task needs one.`);
        await saveTasks(file, tasks);
        return observation(
          `Task list has been updated with ${tasks.length} item(s).${tasks.length ? `\n\n${renderTasks(tasks)}` : ''}`,
          tasks,
        );
      }
      const tasks = await loadTasks(file);
      if (tasks.length === 0) return observation('No task list found. Use the "plan" command to create one.', []);
      return observation(renderTasks(tasks), tasks);
    },
    (message) => observation(message, [], true),
  );
}

/** The saved task list; none saved yet is an empty list. */
export async function loadTasks(file: string): Promise<Task[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const parsed = Array.isArray(value) ? value.map((item) => safeParse(TaskItem, item)) : undefined;
  if (!parsed?.every((item) => item.ok)) {
    throw new ToolInputError(
      `The saved task list ${file} is not a valid task list; use the "plan" command to replace it.`,
    );
  }
  return parsed.map((item) => (item as { value: Task }).value);
}

async function saveTasks(file: string, tasks: Task[]): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true });
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, `${JSON.stringify(tasks, null, 2)}\n`, 'utf8');
  await rename(temporary, file);
}

const STATUS_LABEL: Record<Task['status'], string> = { todo: 'todo', in_progress: 'in progress', done: 'done' };

/** The list as the LLM reads it: a count by status, then each task numbered with its status and notes. */
export function renderTasks(tasks: readonly Task[]): string {
  const counts = (['todo', 'in_progress', 'done'] as const)
    .map((status) => ({ status, count: tasks.filter((task) => task.status === status).length }))
    .filter(({ count }) => count > 0)
    .map(({ status, count }) => `${count} ${STATUS_LABEL[status]}`);
  const lines = [`# Task List (${counts.join(', ')})`, ''];
  tasks.forEach((task, index) => {
    lines.push(`${index + 1}. [${STATUS_LABEL[task.status]}] ${task.title}`);
    if (task.notes) lines.push(...task.notes.split('\n').map((line) => `   ${line}`));
  });
  return lines.join('\n');
}
