import type { ReactNode } from 'react';
import { describeError } from '../api/errors.ts';

export type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

export function Badge({ tone = 'neutral', children, title }: { tone?: Tone; children: ReactNode; title?: string }) {
  return (
    <span className={`badge${tone === 'neutral' ? '' : ` badge-${tone}`}`} title={title}>
      {children}
    </span>
  );
}

export function Spinner({ label = 'Loading' }: { label?: string }) {
  return (
    <output>
      <span className="spinner" aria-hidden="true" /> <span className="visually-hidden">{label}</span>
    </output>
  );
}

type NoticeTone = 'info' | 'success' | 'warning' | 'error';

export function Notice({
  tone = 'info',
  children,
  title,
}: { tone?: NoticeTone; children: ReactNode; title?: ReactNode }) {
  return (
    <div className={`notice notice-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {title && <strong>{title} </strong>}
      {children}
    </div>
  );
}

/** An API error as a sentence with what to do (never a raw stack), with an optional retry. */
export function ErrorNotice({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  return (
    <Notice tone="error">
      {describeError(error)}{' '}
      {onRetry && (
        <button type="button" className="btn btn-small" onClick={onRetry}>
          Try again
        </button>
      )}
    </Notice>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted">
      <Spinner label={`Loading ${what}`} /> Loading {what}…
    </p>
  );
}
