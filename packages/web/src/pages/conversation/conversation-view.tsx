import type { AppConversation } from '@bosun/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useApi } from '../../api/client.tsx';
import { describeError } from '../../api/errors.ts';
import { keys } from '../../api/queries.ts';
import { Button } from '../../ui/button.tsx';
import { EXECUTION_STATUS } from '../../ui/conversation-status.ts';
import { ErrorNotice, Spinner } from '../../ui/feedback.tsx';
import { Composer } from './composer/composer.tsx';
import { ConfirmationBar } from './composer/confirmation.tsx';
import { PendingRow } from './composer/pending-row.tsx';
import { type PendingMessage, unseen, usePending } from './composer/pending.ts';
import type { ActionPhase } from './events/action.tsx';
import { ConversationHeader } from './header.tsx';
import { LiveAnswerRow } from './live/live-answer.tsx';
import { RetryNotice } from './live/retry-notice.tsx';
import { useLiveEvents } from './live/use-live-events.ts';
import { WorkspacePanes } from './panes/panes.tsx';
import { buildTimeline } from './timeline/model.ts';
import { Timeline, TimelineOnceLoaded } from './timeline/timeline.tsx';
import { useAgentServer } from './use-conversation.ts';

const wideScreen = () => typeof window !== 'undefined' && window.matchMedia('(min-width: 1100px)').matches;

/** A conversation: its header, its live timeline, the message box and controls, and its workspace beside it. */
export function ConversationView({
  conversation,
  initialPending,
}: {
  conversation: AppConversation;
  initialPending?: PendingMessage[] | undefined;
}) {
  const id = conversation.id;
  const api = useApi();
  const queryClient = useQueryClient();
  const live = useLiveEvents(id);
  const model = useMemo(() => buildTimeline(live.events), [live.events]);
  const agentServer = useAgentServer(conversation);
  const { pending, add, update, remove } = usePending(initialPending);
  const [showPanes, setShowPanes] = useState(wideScreen);
  const [controlError, setControlError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState<'pause' | 'resume' | 'stop' | undefined>(undefined);

  const running = conversation.sandbox_status === 'RUNNING';
  // The events' last state first: the app's row may lag behind them (it learns from webhooks and sweeps), and a
  // refetch of the row after the run finished put a stale `running` back, with no event left to correct it.
  const executionStatus = running ? (model.executionStatus ?? conversation.execution_status ?? undefined) : undefined;
  const pendingPhase: ActionPhase =
    executionStatus === 'waiting_for_confirmation' ? 'waiting' : executionStatus === 'running' ? 'running' : 'stopped';
  const waiting = executionStatus === 'waiting_for_confirmation' && model.unanswered.length > 0;
  const visiblePending = unseen(pending, model.userTexts);
  const changesVersion = useMemo(
    () => model.items.reduce((n, item) => n + (item.type === 'action' && item.result ? 1 : 0), 0),
    [model.items],
  );

  const refresh = () => {
    queryClient.invalidateQueries({ queryKey: keys.conversation(id) });
    queryClient.invalidateQueries({ queryKey: keys.conversations });
  };
  const control = async (which: 'pause' | 'resume' | 'stop') => {
    setBusy(which);
    setControlError(undefined);
    try {
      if (which === 'pause')
        await api.post('/api/v1/app-conversations/{conversation_id}/pause', { params: { conversation_id: id } });
      else if (which === 'resume')
        await api.post('/api/v1/app-conversations/{conversation_id}/resume', { params: { conversation_id: id } });
      else if (agentServer)
        await agentServer.post('/api/conversations/{conversation_id}/pause', { params: { conversation_id: id } });
      refresh();
    } catch (failure) {
      setControlError(describeError(failure));
    } finally {
      setBusy(undefined);
    }
  };
  const sendMessage = async (text: string, localId?: string) => {
    const idOf = localId ?? add(text, model.userTexts.get(text.trim()) ?? 0);
    if (localId) update(localId, { state: 'sending', error: undefined });
    try {
      await api.post('/api/v1/app-conversations/{conversation_id}/send-message', {
        params: { conversation_id: id },
        body: { role: 'user', content: [{ type: 'text', text, cache_prompt: false }], run: true },
      });
      update(idOf, { state: 'sent' });
    } catch (failure) {
      update(idOf, { state: 'failed', error: failure });
    }
  };

  const resumeButton = (
    <Button small variant="primary" busy={busy === 'resume'} onClick={() => control('resume')}>
      Resume
    </Button>
  );
  let disabledReason: string | undefined;
  let reasonActions = null;
  switch (conversation.sandbox_status) {
    case 'STARTING':
      disabledReason = 'The sandbox is starting: you can write once it runs.';
      break;
    case 'PAUSED':
      disabledReason = 'The sandbox is paused. Resume it to continue the conversation.';
      reasonActions = resumeButton;
      break;
    case 'ERROR':
      disabledReason = `The sandbox stopped on an error${conversation.sandbox_status_detail ? `: ${conversation.sandbox_status_detail}` : ''}. Resume it to try again.`;
      reasonActions = resumeButton;
      break;
    case 'MISSING':
      disabledReason =
        'The sandbox of this conversation is gone: its history stays readable, but it cannot go on. Start a new conversation to continue.';
      reasonActions = (
        <Link className="btn btn-small" to="/">
          New conversation
        </Link>
      );
      break;
  }

  const headerActions = (
    <>
      {running && (
        <Button
          small
          busy={busy === 'pause'}
          onClick={() => control('pause')}
          title="Pause the sandbox: its workspace is kept"
        >
          Pause
        </Button>
      )}
      {(conversation.sandbox_status === 'PAUSED' || conversation.sandbox_status === 'ERROR') && resumeButton}
      <Button
        small
        aria-expanded={showPanes}
        aria-controls="conversation-panes"
        onClick={() => setShowPanes((v) => !v)}
      >
        Changes and files
      </Button>
    </>
  );

  // A retry is cleared (`llm_retry: null`) when its call ends; a run paused or stopped meanwhile is not retrying.
  const showRetry = model.retry !== null && executionStatus === 'running';
  const working = executionStatus === 'running' && live.answers.length === 0 && !showRetry;
  const after = (
    <div className="timeline-after">
      {live.answers.map((answer) => (
        <LiveAnswerRow key={answer.streamId} answer={answer} />
      ))}
      {visiblePending.map((message) => (
        <PendingRow
          key={message.localId}
          message={message}
          onRetry={() => sendMessage(message.text, message.localId)}
          onDiscard={() => remove(message.localId)}
        />
      ))}
      {showRetry && model.retry && <RetryNotice retry={model.retry} />}
      {working && (
        <p className="working muted small">
          <Spinner label="The agent is working" /> The agent is working…
        </p>
      )}
    </div>
  );

  return (
    <main className={`conv-page ${showPanes ? 'with-panes' : ''}`}>
      {/* The timeline is not announced row by row (it is virtualized): what the agent is doing is, as it changes. */}
      <p className="visually-hidden" aria-live="polite">
        {executionStatus ? `The agent: ${EXECUTION_STATUS[executionStatus]?.label ?? executionStatus}.` : ''}
      </p>
      <ConversationHeader
        conversation={conversation}
        executionStatus={executionStatus}
        connection={live.connection}
        connectionDetail={live.connectionDetail}
        onReconnect={live.retry}
        actions={headerActions}
      />
      {controlError && (
        <div className="conv-alert">
          <ErrorNotice error={new Error(controlError)} />
        </div>
      )}
      <div className="conv-body">
        <section className="conv-main" aria-label="Conversation">
          <TimelineOnceLoaded
            loading={live.loading}
            error={live.error}
            hasEvents={live.events.length > 0}
            onRetry={live.retry}
          >
            <Timeline
              items={model.items}
              pendingPhase={pendingPhase}
              before={
                live.loadingOlder ? (
                  <p className="muted small older-loading">
                    <Spinner label="Loading earlier events" /> Loading earlier events…
                  </p>
                ) : live.error !== undefined ? (
                  <ErrorNotice error={live.error} onRetry={live.retry} />
                ) : null
              }
              empty={
                visiblePending.length === 0 && (
                  <p className="muted empty-timeline">No messages yet. Write below what the agent should do.</p>
                )
              }
              after={after}
            />
          </TimelineOnceLoaded>
          {waiting && <ConfirmationBar conversationId={id} actions={model.unanswered} agentServer={agentServer} />}
          <Composer
            onSend={(text) => sendMessage(text)}
            disabledReason={disabledReason}
            actions={reasonActions}
            extra={
              (executionStatus === 'running' || executionStatus === 'waiting_for_confirmation') && agentServer ? (
                <Button
                  busy={busy === 'stop'}
                  onClick={() => control('stop')}
                  title="Stop the agent's run after its current step"
                >
                  Stop
                </Button>
              ) : null
            }
          />
        </section>
        {showPanes && (
          <aside id="conversation-panes" className="conv-panes" aria-label="Workspace">
            <WorkspacePanes
              conversationId={id}
              agentServer={agentServer}
              workingDir={live.snapshot?.workspace?.working_dir}
              running={running}
              version={changesVersion}
            />
          </aside>
        )}
      </div>
    </main>
  );
}
