import type { ReactNode } from 'react';

/** Rendered Markdown by text, the last few hundred: a row scrolled out of view and back is not parsed again. */
const rendered = new Map<string, ReactNode>();
const MAX = 400;

export const isRendered = (text: string): boolean => rendered.has(text);

export function renderedOf(text: string, render: (text: string) => ReactNode): ReactNode {
  const cached = rendered.get(text);
  if (cached !== undefined) return cached;
  const node = render(text);
  rendered.set(text, node);
  if (rendered.size > MAX) rendered.delete(rendered.keys().next().value as string);
  return node;
}
