import type { ObservationOf } from '@bosun/protocol';
import { useState } from 'react';
import { textOf } from '../timeline/model.ts';
import { clip } from './parts.tsx';

/** What a browser action saw: the page's text (first lines) and its screenshot. */
export function BrowserResult({ observation }: { observation: ObservationOf<'BrowserObservation'> }) {
  const [all, setAll] = useState(false);
  const text = textOf(observation.content);
  const { head, more } = clip(text, 20);
  return (
    <div className="browser-result">
      {observation.screenshot_data && (
        <img
          className="screenshot"
          src={`data:image/png;base64,${observation.screenshot_data}`}
          alt="Screenshot of the page the agent's browser showed"
          loading="lazy"
        />
      )}
      {text && <pre className={`tool-text ${observation.is_error ? 'text-danger' : ''}`}>{all ? text : head}</pre>}
      {more > 0 && (
        <button type="button" className="btn btn-ghost btn-small" onClick={() => setAll((v) => !v)}>
          {all ? 'Show less' : `Show ${more} more lines`}
        </button>
      )}
    </div>
  );
}
