import { structuredPatch } from 'diff';
import { useMemo } from 'react';

export interface DiffProps {
  oldText: string;
  newText: string;
  path?: string | undefined;
  /** Lines of context around each change (default 3). */
  context?: number;
}

/** A unified diff of two texts, line by line, with old and new line numbers. */
export default function DiffImpl({ oldText, newText, path, context = 3 }: DiffProps) {
  const patch = useMemo(
    () => structuredPatch(path ?? 'a', path ?? 'b', oldText, newText, '', '', { context }),
    [oldText, newText, path, context],
  );
  if (patch.hunks.length === 0) return <p className="muted small">No change in the text.</p>;
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks)
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added += 1;
      else if (line.startsWith('-')) removed += 1;
    }
  return (
    <div className="diff">
      <p className="diff-stats small">
        <span className="diff-added-count">+{added}</span> <span className="diff-removed-count">−{removed}</span>
        <span className="visually-hidden">
          {added} lines added, {removed} removed
        </span>
      </p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
      <table className="diff-table" tabIndex={0} aria-label={path ? `Changes of ${path}` : 'Changes'}>
        <tbody>
          {patch.hunks.map((hunk) => {
            let oldLine = hunk.oldStart;
            let newLine = hunk.newStart;
            return [
              <tr key={`h${hunk.oldStart}-${hunk.newStart}`} className="diff-hunk">
                <td colSpan={3}>
                  @@ −{hunk.oldStart},{hunk.oldLines} +{hunk.newStart},{hunk.newLines} @@
                </td>
              </tr>,
              ...hunk.lines
                .filter((line) => !line.startsWith('\\'))
                .map((line, index) => {
                  const sign = line[0];
                  const text = line.slice(1);
                  const kind = sign === '+' ? 'add' : sign === '-' ? 'del' : 'ctx';
                  const left = kind === 'add' ? '' : oldLine++;
                  const right = kind === 'del' ? '' : newLine++;
                  return (
                    <tr key={`${hunk.oldStart}-${index}`} className={`diff-${kind}`}>
                      <td className="diff-num">{left}</td>
                      <td className="diff-num">{right}</td>
                      <td className="diff-text">
                        <span className="diff-sign" aria-hidden="true">
                          {sign === ' ' ? ' ' : sign === '-' ? '−' : '+'}
                        </span>
                        {kind !== 'ctx' && (
                          <span className="visually-hidden">{kind === 'add' ? 'added' : 'removed'}: </span>
                        )}
                        {text}
                      </td>
                    </tr>
                  );
                }),
            ];
          })}
        </tbody>
      </table>
    </div>
  );
}
