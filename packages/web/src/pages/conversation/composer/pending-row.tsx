import { describeError } from '../../../api/errors.ts';
import { Badge } from '../../../ui/feedback.tsx';
import type { PendingMessage } from './pending.ts';

/** A message of the person's that is not an event yet: sending, queued, or failed (with retry and discard). */
export function PendingRow({
  message,
  onRetry,
  onDiscard,
}: {
  message: PendingMessage;
  onRetry?: (() => void) | undefined;
  onDiscard: () => void;
}) {
  return (
    <article className="message message-user message-pending" aria-label="Your message, not delivered yet">
      <header className="row-head">
        <span className="who">You</span>
        {message.state === 'sending' && <Badge tone="info">Sending…</Badge>}
        {message.state === 'sent' && <Badge tone="info">Sent</Badge>}
        {message.state === 'queued' && <Badge tone="warning">Queued: delivered once the conversation runs</Badge>}
        {message.state === 'failed' && <Badge tone="danger">Not sent</Badge>}
      </header>
      <p className="md-plain">{message.text}</p>
      {message.state === 'failed' && (
        <div className="row">
          <span className="text-danger small">{describeError(message.error)}</span>
          {onRetry && (
            <button type="button" className="btn btn-small" onClick={onRetry}>
              Send again
            </button>
          )}
          <button type="button" className="btn btn-small btn-ghost" onClick={onDiscard}>
            Discard
          </button>
        </div>
      )}
    </article>
  );
}
