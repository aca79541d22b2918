import type { ActionOf, ObservationOf } from '@bosun/protocol';
import { Code } from '../render/code.tsx';
import { Diff } from '../render/diff.tsx';
import { textOf } from '../timeline/model.ts';

type EditorObservation =
  | ObservationOf<'FileEditorObservation'>
  | ObservationOf<'PlanningFileEditorObservation'>
  | ObservationOf<'EditObservation'>
  | ObservationOf<'WriteFileObservation'>;

/** What a file edit changed: a diff of the file before and after, else what the tool said. */
export function FileEditResult({ observation, path }: { observation: EditorObservation; path?: string | undefined }) {
  const command = 'command' in observation ? observation.command : undefined;
  const text = textOf(observation.content);
  const file =
    ('file_path' in observation ? observation.file_path : 'path' in observation ? observation.path : null) ?? path;
  if (command === 'view') {
    const numbered = parseNumbered(text);
    if (numbered)
      return (
        <Code
          code={numbered.code}
          language={file ?? undefined}
          firstLine={numbered.firstLine}
          label={`Content of ${file ?? 'the file'}`}
          className="file-view"
        />
      );
    return (
      <pre className="tool-text" aria-label={`Content of ${file ?? 'the file'}`}>
        {text}
      </pre>
    );
  }
  if (observation.is_error || (observation.new_content == null && observation.old_content == null)) {
    return <pre className={`tool-text ${observation.is_error ? 'text-danger' : ''}`}>{text || 'Done.'}</pre>;
  }
  return (
    <Diff oldText={observation.old_content ?? ''} newText={observation.new_content ?? ''} path={file ?? undefined} />
  );
}

/** An edit the agent asked for, before it ran (or when it was rejected): what it would change. */
export function FileEditInput({
  action,
}: {
  action:
    | ActionOf<'FileEditorAction'>
    | ActionOf<'PlanningFileEditorAction'>
    | ActionOf<'EditAction'>
    | ActionOf<'WriteFileAction'>;
}) {
  switch (action.kind) {
    case 'EditAction':
      return <Diff oldText={action.old_string} newText={action.new_string} path={action.file_path} context={2} />;
    case 'WriteFileAction':
      return <Code code={action.content} language={action.file_path} label={`New content of ${action.file_path}`} />;
    default:
      if (action.command === 'create' && action.file_text != null)
        return <Code code={action.file_text} language={action.path} label={`New content of ${action.path}`} />;
      if (action.command === 'str_replace' && action.old_str != null)
        return <Diff oldText={action.old_str} newText={action.new_str ?? ''} path={action.path} context={2} />;
      if (action.command === 'insert' && action.new_str != null)
        return (
          <>
            <p className="muted small">After line {action.insert_line ?? 0}:</p>
            <Code code={action.new_str} language={action.path} label="Inserted text" />
          </>
        );
      if (action.command === 'view' && action.view_range)
        return <p className="muted small">Lines {action.view_range.join(' to ').replace('-1', 'the end')}.</p>;
      return null;
  }
}

/** A file as the agent read it, highlighted, with its line numbers. */
export function ReadFileResult({ observation }: { observation: ObservationOf<'ReadFileObservation'> }) {
  if (observation.is_error) return <pre className="tool-text text-danger">{textOf(observation.content)}</pre>;
  const first = observation.lines_shown?.[0] ?? 1;
  return (
    <>
      <Code
        code={observation.file_content}
        language={observation.file_path}
        firstLine={first}
        label={`Content of ${observation.file_path}`}
        className="file-view"
      />
      {observation.is_truncated && (
        <p className="muted small">
          Lines {observation.lines_shown?.join(' to ')} of {observation.total_lines ?? 'more'}.
        </p>
      )}
    </>
  );
}

/** A `cat -n` listing (the file editor's view) as its code and first line number, or undefined if it is not one. */
function parseNumbered(text: string): { firstLine: number; code: string } | undefined {
  const lines = text.replace(/\n$/, '').split('\n');
  const start = lines.findIndex((line) => /^\s*\d+\t/.test(line));
  if (start < 0) return undefined;
  const code: string[] = [];
  let firstLine = 0;
  for (const line of lines.slice(start)) {
    const match = /^\s*(\d+)\t(.*)$/.exec(line);
    if (!match) return undefined;
    if (code.length === 0) firstLine = Number(match[1]);
    code.push(match[2] ?? '');
  }
  return { firstLine, code: code.join('\n') };
}
