import type { AppConversationStartTask } from '@bosun/protocol';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useApi } from '../../api/client.tsx';
import { Spinner } from '../../ui/feedback.tsx';
import { relativeTime, timeProps } from '../../ui/time.ts';

export const START_TASKS_KEY = ['start-tasks', 'recent'] as const;

const STEPS: Record<string, string> = {
  WORKING: 'Accepted',
  WAITING_FOR_SANDBOX: 'Starting the sandbox',
  PREPARING_REPOSITORY: 'Cloning the repository',
  RUNNING_SETUP_SCRIPT: 'Running the setup script',
  SETTING_UP_GIT_HOOKS: 'Setting up Git hooks',
  SETTING_UP_SKILLS: 'Loading skills',
  STARTING_CONVERSATION: 'Starting the conversation',
};

const inProgress = (task: AppConversationStartTask) => task.status !== 'READY' && task.status !== 'ERROR';

/** The message a start began with (its first text), else its repository. */
function taskTitle(task: AppConversationStartTask): string {
  const first = task.request.initial_message?.content.find((block) => block.type === 'text');
  const text = first && 'text' in first ? String(first.text) : '';
  return task.request.title || text || task.request.selected_repository || 'New conversation';
}

/** The caller's starts still in progress, above the conversations; read again every 2 s while there are any. */
export function StartTasks() {
  const api = useApi();
  const tasks = useQuery({
    queryKey: START_TASKS_KEY,
    queryFn: () => api.searchStartTasks({ sort_order: 'CREATED_AT_DESC', limit: 20 }),
    refetchInterval: (query) => (query.state.data?.items.some(inProgress) ? 2000 : false),
  });
  const running = (tasks.data?.items ?? []).filter(inProgress);
  if (running.length === 0) return null;
  return (
    <section aria-labelledby="starting-heading" className="starting">
      <h2 id="starting-heading">Starting</h2>
      <ul className="conversation-list">
        {running.map((task) => (
          <li key={task.id} className="conversation-row">
            <div className="conversation-main">
              <Link to={`/conversations/${task.id}`} className="conversation-title">
                {taskTitle(task)}
              </Link>
              <div className="row conversation-meta">
                <Spinner label="Starting" />
                <span>{STEPS[task.status] ?? task.status}</span>
                {task.request.selected_repository && <span className="muted">{task.request.selected_repository}</span>}
                <time className="muted" {...timeProps(task.created_at)}>
                  {relativeTime(task.created_at)}
                </time>
              </div>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
