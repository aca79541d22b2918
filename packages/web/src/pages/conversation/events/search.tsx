import type { ObservationOf } from '@bosun/protocol';
import { textOf } from '../timeline/model.ts';

function PathList({ paths, truncated, empty }: { paths: readonly string[]; truncated: boolean; empty: string }) {
  if (paths.length === 0) return <p className="muted small">{empty}</p>;
  return (
    <>
      <ul className="path-list">
        {paths.map((path) => (
          <li key={path}>
            <code>{path}</code>
          </li>
        ))}
      </ul>
      <p className="muted small">
        {paths.length} {paths.length === 1 ? 'file' : 'files'}
        {truncated ? ' (the list was cut: there are more)' : ''}.
      </p>
    </>
  );
}

export function GlobResult({ observation }: { observation: ObservationOf<'GlobObservation'> }) {
  if (observation.is_error) return <pre className="tool-text text-danger">{textOf(observation.content)}</pre>;
  return (
    <>
      <p className="muted small">
        In <code>{observation.search_path}</code>:
      </p>
      <PathList paths={observation.files} truncated={observation.truncated} empty="No file matches." />
    </>
  );
}

export function GrepResult({ observation }: { observation: ObservationOf<'GrepObservation'> }) {
  if (observation.is_error) return <pre className="tool-text text-danger">{textOf(observation.content)}</pre>;
  return (
    <>
      <p className="muted small">
        In <code>{observation.search_path}</code>
        {observation.include_pattern ? (
          <>
            , files <code>{observation.include_pattern}</code>
          </>
        ) : null}
        :
      </p>
      <PathList paths={observation.matches} truncated={observation.truncated} empty="No file contains it." />
    </>
  );
}

const sizeFormat = new Intl.NumberFormat(undefined, { style: 'unit', unit: 'kilobyte', maximumFractionDigits: 1 });

export function ListDirectoryResult({ observation }: { observation: ObservationOf<'ListDirectoryObservation'> }) {
  if (observation.is_error) return <pre className="tool-text text-danger">{textOf(observation.content)}</pre>;
  if (observation.entries.length === 0) return <p className="muted small">The directory is empty.</p>;
  return (
    <>
      <ul className="path-list">
        {observation.entries.map((entry) => (
          <li key={entry.path}>
            <code>
              {entry.name}
              {entry.is_directory ? '/' : ''}
            </code>{' '}
            {!entry.is_directory && <span className="muted small">{sizeFormat.format(entry.size / 1024)}</span>}
          </li>
        ))}
      </ul>
      {observation.is_truncated && (
        <p className="muted small">
          {observation.entries.length} of {observation.total_count} entries.
        </p>
      )}
    </>
  );
}
