import { useEffect, useState } from 'react';

interface CodeProps {
  code: string;
  /** A language name (a code fence's) or a file path: its extension picks the language. */
  language?: string | undefined;
  /** Line numbers from this line (a file view); absent: none. */
  firstLine?: number | undefined;
  className?: string | undefined;
  label?: string | undefined;
}

/**
 * Code in a `<pre>`: shown plain at once, highlighted once highlight.js (a chunk of its own, loaded on first use)
 * is there. Highlighted HTML comes from highlight.js, which escapes the code.
 */
export function Code({ code, language, firstLine, className, label }: CodeProps) {
  const [html, setHtml] = useState<string | undefined>(undefined);
  useEffect(() => {
    let live = true;
    setHtml(undefined);
    if (!language) return;
    import('./highlight.ts').then(({ highlight, languageOf }) => {
      if (live) setHtml(highlight(code, languageOf(language)));
    });
    return () => {
      live = false;
    };
  }, [code, language]);
  const lines = firstLine !== undefined ? code.split('\n').length : 0;
  return (
    <div className={`code ${className ?? ''}`}>
      {firstLine !== undefined && (
        <pre className="code-gutter" aria-hidden="true">
          {Array.from({ length: lines }, (_, i) => firstLine + i).join('\n')}
        </pre>
      )}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
      <pre className="code-body" tabIndex={0} aria-label={label}>
        {html === undefined ? (
          <code>{code}</code>
        ) : (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: highlight.js escapes the code it highlights
          <code className="hljs" dangerouslySetInnerHTML={{ __html: html }} />
        )}
      </pre>
    </div>
  );
}
