import type { AnyThinkingBlock } from '@bosun/protocol';
import { useExpanded } from '../timeline/expanded.tsx';

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** When an event happened: the time, the full date in its title. */
export function Time({ at }: { at: string | undefined }) {
  if (!at) return null;
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return null;
  return (
    <time className="muted small" dateTime={at} title={dateTimeFormat.format(date)}>
      {timeFormat.format(date)}
    </time>
  );
}

/** The model's reasoning (or thinking blocks), folded. */
export function Reasoning({
  text,
  blocks,
}: {
  text?: string | null | undefined;
  blocks?: readonly AnyThinkingBlock[] | undefined;
}) {
  const thinking = [text ?? '', ...(blocks ?? []).map((block) => ('thinking' in block ? block.thinking : ''))]
    .filter(Boolean)
    .join('\n\n');
  if (!thinking) return null;
  return (
    <details className="reasoning">
      <summary>Reasoning</summary>
      <p className="reasoning-text">{thinking}</p>
    </details>
  );
}

/** A button that shows or hides the details of a row (its state kept while the row scrolls out of view). */
export function useFold(key: string, byDefault: boolean) {
  return useExpanded(key, byDefault);
}

/** Long text, its first lines shown, the rest on demand. */
export function clip(text: string, lines: number): { head: string; more: number } {
  const all = text.split('\n');
  if (all.length <= lines + 2) return { head: text, more: 0 };
  return { head: all.slice(0, lines).join('\n'), more: all.length - lines };
}
