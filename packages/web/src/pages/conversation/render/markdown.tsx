import { Suspense, lazy } from 'react';

const MarkdownImpl = lazy(() => import('./markdown-impl.tsx'));

/** Markdown (GFM: tables, task lists, strikethrough); its renderer is a chunk of its own, the text shows meanwhile. */
export function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <Suspense fallback={<p className="md-plain">{text}</p>}>
        <MarkdownImpl text={text} />
      </Suspense>
    </div>
  );
}
