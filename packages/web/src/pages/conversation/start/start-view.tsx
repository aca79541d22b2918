import type { AppConversationStartTask } from '@bosun/protocol';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useApi } from '../../../api/client.tsx';
import { keys } from '../../../api/queries.ts';
import { ErrorNotice, Loading, Notice, Spinner } from '../../../ui/feedback.tsx';
import { Composer } from '../composer/composer.tsx';
import { PendingRow } from '../composer/pending-row.tsx';
import { type PendingMessage, usePending } from '../composer/pending.ts';

const STEPS: { status: AppConversationStartTask['status']; label: string }[] = [
  { status: 'WORKING', label: 'Accepted' },
  { status: 'WAITING_FOR_SANDBOX', label: 'Starting the sandbox' },
  { status: 'PREPARING_REPOSITORY', label: 'Cloning the repository' },
  { status: 'SETTING_UP_SKILLS', label: 'Loading skills and plugins' },
  { status: 'STARTING_CONVERSATION', label: 'Starting the agent' },
  { status: 'READY', label: 'Ready' },
];
const ORDER: Record<string, number> = {
  WORKING: 0,
  WAITING_FOR_SANDBOX: 1,
  PREPARING_REPOSITORY: 2,
  RUNNING_SETUP_SCRIPT: 2,
  SETTING_UP_GIT_HOOKS: 2,
  SETTING_UP_SKILLS: 3,
  STARTING_CONVERSATION: 4,
  READY: 5,
};

/** State handed to the conversation when its start is READY: the messages queued meanwhile, still to be seen. */
export interface StartHandOver {
  pending?: PendingMessage[];
}

/**
 * A conversation being started: each step with the time it has taken, then the conversation itself at READY
 * (messages queued meanwhile are delivered in order, and shown as pending until they are events), or why it
 * failed and what to do.
 */
export function StartView({ taskId }: { taskId: string }) {
  const api = useApi();
  const navigate = useNavigate();
  const { pending, add, update, remove } = usePending();
  const task = useQuery({
    queryKey: keys.startTask(taskId),
    queryFn: async () =>
      (await api.get('/api/v1/app-conversations/start-tasks', { query: { ids: [taskId] } }))[0] ?? null,
    // A start has no event stream: its task is read until it ends.
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'READY' || status === 'ERROR' || query.state.data === null ? false : 1000;
    },
  });
  const data = task.data;
  useEffect(() => {
    if (data?.status === 'READY' && data.app_conversation_id) {
      const handOver: StartHandOver = { pending: pending.filter((message) => message.state !== 'failed') };
      navigate(`/conversations/${data.app_conversation_id}`, { replace: true, state: handOver });
    }
  }, [data, navigate, pending]);

  if (task.isPending) return <Loading what="the start" />;
  if (task.isError) return <ErrorNotice error={task.error} onRetry={() => task.refetch()} />;
  if (!data) {
    return (
      <Notice tone="error" title="No such conversation.">
        It may have been deleted, or it belongs to another account or organization.{' '}
        <Link to="/">Back to your conversations</Link>
      </Notice>
    );
  }

  const queue = async (text: string, localId?: string) => {
    const id = localId ?? add(text, 0, 'sending');
    if (localId) update(localId, { state: 'sending', error: undefined });
    try {
      const answer = await api.post('/api/v1/conversations/{conversation_id}/pending-messages', {
        params: { conversation_id: `task-${taskId}` },
        body: { role: 'user', content: [{ type: 'text', text, cache_prompt: false }] },
      });
      update(id, { state: answer.queued ? 'queued' : 'sent' });
    } catch (failure) {
      update(id, { state: 'failed', error: failure });
    }
  };
  const failed = data.status === 'ERROR';
  return (
    <div className="start-view">
      <h1>{failed ? 'The conversation could not start' : 'Starting your conversation'}</h1>
      {failed ? <StartError task={data} /> : <StartSteps task={data} />}
      {data.problems.length > 0 && (
        <Notice tone="warning" title="Started with problems:">
          <ul>
            {data.problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </Notice>
      )}
      {pending.length > 0 && (
        <section aria-label="Messages waiting for the conversation" className="stack">
          {pending.map((message) => (
            <PendingRow
              key={message.localId}
              message={message}
              onRetry={failed ? undefined : () => queue(message.text, message.localId)}
              onDiscard={() => remove(message.localId)}
            />
          ))}
        </section>
      )}
      {!failed && (
        <Composer
          onSend={(text) => queue(text)}
          placeholder="Write your next message now: it is delivered once the agent runs"
        />
      )}
    </div>
  );
}

function StartSteps({ task }: { task: AppConversationStartTask }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const current = ORDER[task.status] ?? 0;
  const started = Date.parse(task.created_at);
  const elapsed = Number.isNaN(started) ? undefined : Math.max(0, Math.round((now - started) / 1000));
  return (
    <div className="card start-card">
      <ol className="start-steps" aria-label="Steps of the start">
        {STEPS.map((step, index) => {
          const state = index < current ? 'done' : index === current ? 'current' : 'todo';
          return (
            <li
              key={step.status}
              className={`start-step step-${state}`}
              aria-current={state === 'current' ? 'step' : undefined}
            >
              <span className="step-mark" aria-hidden="true">
                {state === 'done' ? '✓' : state === 'current' ? <Spinner label={step.label} /> : '○'}
              </span>
              <span>{step.label}</span>
              <span className="visually-hidden">
                {state === 'done' ? ' (done)' : state === 'current' ? ' (in progress)' : ''}
              </span>
            </li>
          );
        })}
      </ol>
      {elapsed !== undefined && (
        <p className="muted small" aria-live="off">
          {elapsed} s so far. A first start can take a minute while the sandbox is prepared.
        </p>
      )}
    </div>
  );
}

function StartError({ task }: { task: AppConversationStartTask }) {
  const detail = task.detail?.trim() || 'The server gave no reason.';
  return (
    <Notice tone="error">
      <p className="error-detail">{/[.!?]$/.test(detail) ? detail : `${detail}.`}</p>
      <p>
        Check what it says (a repository or branch, the model in <Link to="/settings">Settings</Link>, a secret), then{' '}
        <Link to="/">start a new conversation</Link>.
      </p>
    </Notice>
  );
}
