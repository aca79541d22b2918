import type { ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { Code } from './code.tsx';
import { renderedOf } from './markdown-cache.ts';

const components: Components = {
  // Fenced code: highlighted; inline code stays as it is.
  pre({ children }) {
    return <>{children}</>;
  },
  code({ className, children }) {
    const text = String(children ?? '');
    const language = /language-([\w+-]+)/.exec(className ?? '')?.[1];
    if (!language && !text.includes('\n')) return <code>{children}</code>;
    return <Code code={text.replace(/\n$/, '')} language={language} label="Code" />;
  },
  a({ href, children }) {
    return (
      <a href={href} target="_blank" rel="noreferrer noopener">
        {children}
      </a>
    );
  },
  // A task list's boxes: what they say, not a control a person could think they can tick.
  input({ type, checked }) {
    if (type !== 'checkbox') return null;
    return (
      <span className="md-check" role="img" aria-label={checked ? 'Done' : 'Not done'}>
        {checked ? '☑' : '☐'}
      </span>
    );
  },
  table({ children }) {
    return (
      <div className="md-table">
        <table className="table">{children}</table>
      </div>
    );
  },
};

const render = (text: string): ReactNode => (
  <ReactMarkdown remarkPlugins={[remarkGfm]} components={components} skipHtml>
    {text}
  </ReactMarkdown>
);

export default function MarkdownImpl({ text }: { text: string }): ReactNode {
  return renderedOf(text, render);
}
