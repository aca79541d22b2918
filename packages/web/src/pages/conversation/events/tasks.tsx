import type { ObservationOf } from '@bosun/protocol';

type Task = ObservationOf<'TaskTrackerObservation'>['task_list'][number];

const STATUS = { todo: 'To do', in_progress: 'In progress', done: 'Done' } as const;

/** The agent's task list as a checklist. */
export function TaskList({ tasks }: { tasks: readonly Task[] }) {
  if (tasks.length === 0) return <p className="muted small">The task list is empty.</p>;
  const done = tasks.filter((task) => task.status === 'done').length;
  return (
    <div className="tasks">
      <p className="muted small">
        {done} of {tasks.length} done
      </p>
      <ul className="task-list">
        {tasks.map((task, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the list's order is its identity
          <li key={index} className={`task task-${task.status}`}>
            <span className="task-box" aria-hidden="true">
              {task.status === 'done' ? '☑' : task.status === 'in_progress' ? '◐' : '☐'}
            </span>
            <span className="visually-hidden">{STATUS[task.status]}: </span>
            <span className="task-title">{task.title}</span>
            {task.notes && <span className="task-notes muted small">{task.notes}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}
