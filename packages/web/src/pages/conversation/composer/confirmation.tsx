import type { AgentServerClient } from '@bosun/client';
import { useId, useState } from 'react';
import { Button } from '../../../ui/button.tsx';
import { ErrorNotice } from '../../../ui/feedback.tsx';
import { describeAction, notYet } from '../events/describe.ts';
import type { ActionEvent } from '../timeline/model.ts';

/**
 * The agent waits for the person's approval of its next actions: Approve runs them, Reject (with a reason the
 * agent reads) answers each with a rejection. The agent server's `respond_to_confirmation`.
 */
export function ConfirmationBar({
  conversationId,
  actions,
  agentServer,
}: {
  conversationId: string;
  actions: readonly ActionEvent[];
  agentServer: AgentServerClient | undefined;
}) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState<'approve' | 'reject' | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const headingId = useId();
  const reasonId = useId();
  const respond = async (accept: boolean) => {
    if (!agentServer) return;
    setBusy(accept ? 'approve' : 'reject');
    setError(undefined);
    try {
      const trimmed = reason.trim();
      await agentServer.post('/api/conversations/{conversation_id}/events/respond_to_confirmation', {
        params: { conversation_id: conversationId },
        body: {
          accept,
          ...(!accept && trimmed ? { reason: trimmed } : {}),
        },
      });
      setReason('');
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <section className="confirm-bar" aria-labelledby={headingId}>
      <h2 id={headingId} className="confirm-title">
        The agent asks before it {actions.length === 1 ? 'runs this action' : `runs these ${actions.length} actions`}
      </h2>
      <ul className="confirm-list">
        {actions.map((action) => {
          const line = notYet(describeAction(action));
          return (
            <li key={action.id}>
              {line.verb} {line.target && <code>{line.target}</code>}
              {action.security_risk !== 'UNKNOWN' && (
                <span className={`risk risk-${action.security_risk.toLowerCase()}`}>
                  {' '}
                  ({action.security_risk.toLowerCase()} risk)
                </span>
              )}
            </li>
          );
        })}
      </ul>
      {!agentServer && <p className="small muted">The sandbox does not run: resume it to answer.</p>}
      <div className="confirm-controls">
        <label htmlFor={reasonId} className="visually-hidden">
          Reason for rejecting (optional)
        </label>
        <input
          id={reasonId}
          className="input"
          placeholder="Reason for rejecting (optional; the agent reads it)"
          value={reason}
          maxLength={4000}
          onChange={(event) => setReason(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              void respond(false);
            }
          }}
        />
        <Button
          variant="danger"
          busy={busy === 'reject'}
          disabled={!agentServer || busy !== undefined}
          onClick={() => respond(false)}
        >
          Reject
        </Button>
        <Button
          variant="primary"
          busy={busy === 'approve'}
          disabled={!agentServer || busy !== undefined}
          onClick={() => respond(true)}
        >
          Approve
        </Button>
      </div>
      {error !== undefined && <ErrorNotice error={error} />}
    </section>
  );
}
