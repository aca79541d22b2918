import type { ObservationOf } from '@bosun/protocol';
import { useState } from 'react';
import { AnsiOutput } from '../render/ansi.tsx';
import { textOf } from '../timeline/model.ts';
import { clip } from './parts.tsx';

const LINES = 40;

/** A command's output with its colours, its exit code and where it ran; long output shows its first lines. */
export function TerminalResult({ observation }: { observation: ObservationOf<'TerminalObservation'> }) {
  const [all, setAll] = useState(false);
  const text = withoutToolNotes(textOf(observation.content));
  const { head, more } = clip(text, LINES);
  const exit = observation.exit_code ?? observation.metadata.exit_code;
  return (
    <div className="terminal">
      {text ? (
        <AnsiOutput text={all ? text : head} label="Command output" />
      ) : (
        <p className="muted small">No output.</p>
      )}
      <p className="terminal-meta small muted">
        {observation.timeout ? (
          <span className="text-warning">The command hit its timeout and may still run. </span>
        ) : exit === -1 ? (
          <span>Still running. </span>
        ) : (
          <span>
            Exit code <strong className={exit === 0 ? 'text-success' : 'text-danger'}>{exit}</strong>.{' '}
          </span>
        )}
        {observation.metadata.working_dir && <span>In {observation.metadata.working_dir}.</span>}
        {more > 0 && (
          <button type="button" className="btn btn-ghost btn-small" onClick={() => setAll((v) => !v)}>
            {all ? 'Show less' : `Show ${more} more lines`}
          </button>
        )}
      </p>
    </div>
  );
}

/** The notes the terminal tool appends for the model (working directory, exit code): the page shows them itself. */
function withoutToolNotes(text: string): string {
  return text.replace(
    /(\n?\[(Current working directory|Command finished with exit code|Python interpreter)[^\]\n]*\])+\s*$/g,
    '',
  );
}
