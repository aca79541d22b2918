/**
 * The conversation page, `/conversations/:conversationId`.
 *
 * URL contract (the home page navigates here):
 * - `/conversations/<app conversation id>`: the conversation, live.
 * - `/conversations/<start task id>`: a conversation being started (the id `POST /api/v1/app-conversations`
 *   answers, before its conversation exists): the start's progress, then, at READY, the page replaces the URL with
 *   `/conversations/<app_conversation_id>` (messages typed meanwhile are queued and carried over as pending).
 * - `/conversations/<anything>?task=<start task id>`: the same, naming the start task explicitly.
 * An id that is neither is a "not found" with a link home.
 */
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { useApi } from '../../api/client.tsx';
import { keys } from '../../api/queries.ts';
import { ErrorNotice, Loading, Notice } from '../../ui/feedback.tsx';
import { ConversationView } from './conversation-view.tsx';
import { type StartHandOver, StartView } from './start/start-view.tsx';
import { useConversation } from './use-conversation.ts';
import './conversation.css';

export default function ConversationPage() {
  const { conversationId = '' } = useParams();
  const [search] = useSearchParams();
  const taskParam = search.get('task');
  if (taskParam) {
    return (
      <main className="page page-narrow">
        <StartView key={taskParam} taskId={taskParam} />
      </main>
    );
  }
  return <ByIdentifier key={conversationId} id={conversationId} />;
}

/** A conversation by its id, else a start task by its id, else not found. */
function ByIdentifier({ id }: { id: string }) {
  const api = useApi();
  const location = useLocation();
  const conversation = useConversation(id);
  const missing = conversation.isSuccess && conversation.data === null;
  const task = useQuery({
    queryKey: keys.startTask(id),
    queryFn: async () => (await api.get('/api/v1/app-conversations/start-tasks', { query: { ids: [id] } }))[0] ?? null,
    enabled: missing,
  });
  if (conversation.isPending || (missing && task.isPending)) {
    return (
      <main className="page">
        <Loading what="the conversation" />
      </main>
    );
  }
  if (conversation.isError) {
    return (
      <main className="page page-narrow">
        <h1>Conversation</h1>
        <ErrorNotice error={conversation.error} onRetry={() => conversation.refetch()} />
      </main>
    );
  }
  if (conversation.data) {
    const handOver = (location.state as StartHandOver | null) ?? undefined;
    return <ConversationView conversation={conversation.data} initialPending={handOver?.pending} />;
  }
  if (task.data) {
    return (
      <main className="page page-narrow">
        <StartView taskId={id} />
      </main>
    );
  }
  return (
    <main className="page page-narrow">
      <h1>Conversation not found</h1>
      {task.isError ? (
        <ErrorNotice error={task.error} onRetry={() => task.refetch()} />
      ) : (
        <Notice tone="warning">
          There is no conversation with this address in the account or organization you act in. It may have been
          deleted, or belong to another organization (switch it in the header).{' '}
          <Link to="/">Back to your conversations</Link>
        </Notice>
      )}
    </main>
  );
}
