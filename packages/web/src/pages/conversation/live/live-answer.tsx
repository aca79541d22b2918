import { Markdown } from '../render/markdown.tsx';
import type { LiveAnswer } from './stream.ts';

/** An answer the model is writing: its text as it grows, the tool calls it starts; replaced by its events. */
export function LiveAnswerRow({ answer }: { answer: LiveAnswer }) {
  const calls = answer.toolCalls.filter(Boolean);
  return (
    <article className="message message-agent live-answer" aria-busy="true" aria-label="The agent is writing">
      <header className="row-head">
        <span className="who">Agent</span>
        <span className="muted small">{answer.done ? 'finishing…' : 'writing…'}</span>
      </header>
      {answer.reasoning && (
        <details className="reasoning">
          <summary>Reasoning</summary>
          <p className="reasoning-text">{answer.reasoning}</p>
        </details>
      )}
      {answer.text && <Markdown text={answer.text} />}
      {calls.map((call, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: calls are numbered by the stream
        <div key={index} className="live-call">
          <span className="muted small">Preparing {call.name ? <code>{call.name}</code> : 'a tool call'}…</span>
          {call.arguments && <pre className="tool-text">{call.arguments}</pre>}
        </div>
      ))}
      {!answer.text && calls.length === 0 && <span className="caret" aria-hidden="true" />}
      {answer.gap && <p className="muted small">Some of the text was skipped; the full answer follows.</p>}
    </article>
  );
}
