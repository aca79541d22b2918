import { Suspense, lazy, startTransition, useEffect, useState } from 'react';
import { isRendered } from './markdown-cache.ts';

const MarkdownImpl = lazy(() => import('./markdown-impl.tsx'));

/** Text with nothing Markdown would change: shown as it is. */
const PLAIN = /^[^*_`#[\]|>~<\\]*$/;
const BLOCK_SYNTAX = /^\s*([-+]\s|\d+[.)]\s)|https?:\/\/|\n\s*\n/m;
const isPlain = (text: string) => PLAIN.test(text) && !BLOCK_SYNTAX.test(text);

/**
 * Markdown (GFM: tables, task lists, strikethrough). Its renderer is a chunk of its own; the text shows as it is
 * first, and is rendered in a transition (rows scrolled into view never block scrolling); plain text stays plain.
 */
export function Markdown({ text }: { text: string }) {
  const plain = isPlain(text);
  const [rich, setRich] = useState(() => !plain && isRendered(text));
  useEffect(() => {
    if (!plain && !rich) startTransition(() => setRich(true));
  }, [plain, rich]);
  const fallback = <p className="md-plain">{text}</p>;
  return (
    <div className="markdown">
      {rich ? (
        <Suspense fallback={fallback}>
          <MarkdownImpl text={text} />
        </Suspense>
      ) : (
        fallback
      )}
    </div>
  );
}
