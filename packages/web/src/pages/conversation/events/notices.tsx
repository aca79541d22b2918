import type { StoredEvent } from '@bosun/protocol';
import { Markdown } from '../render/markdown.tsx';
import type { ActionResult, TimelineItem } from '../timeline/model.ts';
import { ObservationView } from './action.tsx';
import { Time } from './parts.tsx';

/** An error of the conversation itself (not a tool's): what failed and what to do. */
export function ConversationErrorRow({ event }: { event: StoredEvent<'ConversationErrorEvent'> }) {
  return (
    <div className="event-notice notice notice-error" role="note" aria-label="The conversation failed">
      <strong>The conversation stopped on an error</strong> <Time at={event.timestamp} />
      <p className="error-detail">{event.detail}</p>
      <p className="small">
        <code>{event.code}</code> · Send a message to try again; if it fails again, check the model in Settings.
      </p>
    </div>
  );
}

/** A result whose action is not in view: a rejection, an agent error or an observation, shown alone. */
export function OrphanRow({ event }: { event: ActionResult }) {
  if (event.kind === 'AgentErrorEvent') {
    return (
      <div className="event-notice notice notice-error" role="note" aria-label="The agent's tool call failed">
        <strong>
          The agent's call of <code>{event.tool_name}</code> failed
        </strong>{' '}
        <Time at={event.timestamp} />
        <pre className="tool-text">{event.error}</pre>
        <p className="small">The agent reads this error and goes on.</p>
      </div>
    );
  }
  if (event.kind === 'UserRejectObservation') {
    return (
      <div className="event-notice notice notice-warning" role="note">
        <strong>
          {event.rejection_source === 'hook' ? 'A hook blocked' : 'Rejected:'} <code>{event.tool_name}</code>
        </strong>
        : {event.rejection_reason}
      </div>
    );
  }
  return (
    <div className="action-card orphan">
      <p className="small muted">
        Result of <code>{event.tool_name}</code> <Time at={event.timestamp} />
      </p>
      <ObservationView observation={event.observation} />
    </div>
  );
}

export function CondensationRow({ item }: { item: Extract<TimelineItem, { type: 'condensation' }> }) {
  const event = item.event;
  const summary = 'summary' in event ? event.summary : undefined;
  const forgotten = event.kind === 'Condensation' ? event.forgotten_event_ids.length : undefined;
  return (
    <div className="marker">
      <span className="marker-line" aria-hidden="true" />
      <div className="marker-text">
        <span>
          The history was condensed{forgotten ? `: ${forgotten} earlier events are summarized for the model` : ''}.
        </span>
        {summary && (
          <details>
            <summary>Summary</summary>
            <Markdown text={summary} />
          </details>
        )}
      </div>
      <span className="marker-line" aria-hidden="true" />
    </div>
  );
}

export function PauseRow({ event }: { event: StoredEvent<'PauseEvent'> }) {
  return (
    <div className="marker">
      <span className="marker-line" aria-hidden="true" />
      <span className="marker-text">
        Paused <Time at={event.timestamp} />
      </span>
      <span className="marker-line" aria-hidden="true" />
    </div>
  );
}

export function SystemPromptRow({ event }: { event: StoredEvent<'SystemPromptEvent'> }) {
  const tools = event.tools.map((tool) => tool.title);
  return (
    <details className="system-prompt">
      <summary>
        The agent's instructions and its {tools.length} {tools.length === 1 ? 'tool' : 'tools'}
      </summary>
      <p className="small">
        Tools:{' '}
        {tools.map((name, i) => (
          <span key={name}>
            {i > 0 && ', '}
            <code>{name}</code>
          </span>
        ))}
      </p>
      <pre className="tool-text system-text">{event.system_prompt.text}</pre>
      {/* The conversation's own part (the skills it may load, the repository's instructions): the model reads it too. */}
      {event.dynamic_context?.text && (
        <>
          <p className="small">This conversation's context:</p>
          <pre className="tool-text system-text">{event.dynamic_context.text}</pre>
        </>
      )}
    </details>
  );
}
