import type { AppConversationStartTask } from '@bosun/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useApi } from '../../api/client.tsx';
import { keys } from '../../api/queries.ts';
import { Button } from '../../ui/button.tsx';
import { Badge, Spinner } from '../../ui/feedback.tsx';
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
const RECENT_MS = 60 * 60_000;
const DISMISSED_KEY = 'bosun.dismissed-starts';

/** A start that failed within the hour, not dismissed: its reason stays in sight. */
const recentFailure = (task: AppConversationStartTask, dismissed: string[]) =>
  task.status === 'ERROR' &&
  Date.now() - new Date(task.updated_at).getTime() < RECENT_MS &&
  !dismissed.includes(task.id);

function readDismissed(): string[] {
  try {
    const value = JSON.parse(localStorage.getItem(DISMISSED_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

function stepOf(task: AppConversationStartTask): string {
  if (task.status === 'PREPARING_REPOSITORY' && !task.request.selected_repository) return 'Preparing the workspace';
  return STEPS[task.status] ?? task.status;
}

/** The message a start began with (its first text), else its repository. */
function taskTitle(task: AppConversationStartTask): string {
  const first = task.request.initial_message?.content.find((block) => block.type === 'text');
  const text = first && 'text' in first ? String(first.text) : '';
  return task.request.title || text || task.request.selected_repository || 'New conversation';
}

/**
 * The caller's starts still in progress (and those that failed within the hour, with why), above the
 * conversations; read again every 2 s while one is in progress.
 */
export function StartTasks() {
  const api = useApi();
  const tasks = useQuery({
    queryKey: START_TASKS_KEY,
    queryFn: () =>
      api.get('/api/v1/app-conversations/start-tasks/search', { query: { sort_order: 'CREATED_AT_DESC', limit: 20 } }),
    refetchInterval: (query) => (query.state.data?.items.some(inProgress) ? 2000 : false),
  });
  const queryClient = useQueryClient();
  // A start that ended made (or failed to make) a conversation: the list below is read again.
  const working = (tasks.data?.items ?? []).filter(inProgress).length;
  const before = useRef(working);
  useEffect(() => {
    if (working < before.current) queryClient.invalidateQueries({ queryKey: keys.conversations });
    before.current = working;
  }, [working, queryClient]);
  const [dismissed, setDismissed] = useState(readDismissed);
  const dismiss = (id: string) => {
    const next = [...dismissed, id].slice(-50);
    localStorage.setItem(DISMISSED_KEY, JSON.stringify(next));
    setDismissed(next);
  };
  const running = (tasks.data?.items ?? []).filter((task) => inProgress(task) || recentFailure(task, dismissed));
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
                {task.status === 'ERROR' ? (
                  <Badge tone="danger">Did not start</Badge>
                ) : (
                  <>
                    <Spinner label="Starting" />
                    <span>{stepOf(task)}</span>
                  </>
                )}
                {task.request.selected_repository && <span className="muted">{task.request.selected_repository}</span>}
                <time className="muted" {...timeProps(task.created_at)}>
                  {relativeTime(task.created_at)}
                </time>
              </div>
              {task.status === 'ERROR' && task.detail && <p className="error-text">{task.detail}</p>}
            </div>
            {task.status === 'ERROR' && (
              <Button small variant="ghost" onClick={() => dismiss(task.id)} aria-label={`Dismiss ${taskTitle(task)}`}>
                Dismiss
              </Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
