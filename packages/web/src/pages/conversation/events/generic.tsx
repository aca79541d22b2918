import type { MessageContent } from '@bosun/protocol';
import { useState } from 'react';
import { Code } from '../render/code.tsx';
import { textOf } from '../timeline/model.ts';
import { clip } from './parts.tsx';

/** A result of a tool this page has no view of (an MCP tool, a skill): its text and images, readable. */
export function GenericResult({
  content,
  isError,
}: {
  content: readonly MessageContent[];
  isError?: boolean | undefined;
}) {
  const [all, setAll] = useState(false);
  const text = textOf(content);
  const { head, more } = clip(text, 30);
  const images = content.flatMap((part) => (part.type === 'image' ? part.image_urls : []));
  const json = looksLikeJson(text);
  return (
    <div className="generic-result">
      {text &&
        (json ? (
          <Code code={all ? text : head} language="json" label="Result" />
        ) : (
          <pre className={`tool-text ${isError ? 'text-danger' : ''}`}>{all ? text : head}</pre>
        ))}
      {more > 0 && (
        <button type="button" className="btn btn-ghost btn-small" onClick={() => setAll((v) => !v)}>
          {all ? 'Show less' : `Show ${more} more lines`}
        </button>
      )}
      {images.map((url, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a result's fixed images
        <img key={index} className="screenshot" src={url} alt={`Result ${index + 1} of the tool`} loading="lazy" />
      ))}
      {!text && images.length === 0 && <p className="muted small">No output.</p>}
    </div>
  );
}

/** Arguments of a tool call, as a table of names and values when they are a flat object, else as JSON. */
export function ArgumentsView({ value }: { value: unknown }) {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return <p className="muted small">No arguments.</p>;
    const flat = entries.every(([, v]) => v === null || typeof v !== 'object');
    if (flat)
      return (
        <dl className="arguments">
          {entries.map(([name, v]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd>
                <pre className="tool-text">{typeof v === 'string' ? v : JSON.stringify(v)}</pre>
              </dd>
            </div>
          ))}
        </dl>
      );
  }
  return <Code code={JSON.stringify(value, null, 2)} language="json" label="Arguments" />;
}

function looksLikeJson(text: string): boolean {
  const trimmed = text.trim();
  if (!(trimmed.startsWith('{') || trimmed.startsWith('['))) return false;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
}
