import { useEffect, useState } from 'react';

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences start with ESC
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*(\u0007|\u001b\\)/g;

/** The text without its ANSI escape sequences. */
export const stripAnsi = (text: string): string => text.replace(ANSI, '');

/** Terminal output with its colours: plain at once, coloured once anser (a chunk of its own) is loaded. */
export function AnsiOutput({ text, label }: { text: string; label: string }) {
  const [html, setHtml] = useState<string | undefined>(undefined);
  const hasAnsi = text.includes('\u001b[');
  useEffect(() => {
    let live = true;
    setHtml(undefined);
    if (!hasAnsi) return;
    import('anser').then(({ default: Anser }) => {
      if (live) setHtml(Anser.ansiToHtml(Anser.escapeForHtml(text), { use_classes: true, remove_empty: true }));
    });
    return () => {
      live = false;
    };
  }, [text, hasAnsi]);
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
    <pre className="terminal-output" tabIndex={0} aria-label={label}>
      {html === undefined ? (
        stripAnsi(text)
      ) : (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: anser's input was escaped first
        <span dangerouslySetInnerHTML={{ __html: html }} />
      )}
    </pre>
  );
}
