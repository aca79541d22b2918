import { parse } from 'yaml';

/** A Markdown file split into its YAML frontmatter (a mapping) and its body. */
export interface Frontmatter {
  data: Record<string, unknown>;
  body: string;
  /** Why the frontmatter could not be read (then `data` is empty and `body` is the whole text). */
  error?: string;
}

const FENCE = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** Reads `---`-fenced YAML at the top of `text`; a file without one has empty `data`. */
export function parseFrontmatter(text: string): Frontmatter {
  const source = text.replace(/^\uFEFF/, '');
  const match = FENCE.exec(source);
  if (!match) return { data: {}, body: source };
  const body = source.slice(match[0].length);
  try {
    const data = parse(match[1] ?? '') ?? {};
    if (typeof data !== 'object' || Array.isArray(data)) {
      return { data: {}, body: source, error: 'the frontmatter is not a mapping of keys to values' };
    }
    return { data: data as Record<string, unknown>, body };
  } catch (error) {
    return { data: {}, body: source, error: `the frontmatter is not valid YAML: ${(error as Error).message}` };
  }
}

/** A string field of frontmatter or JSON, or null. */
export function stringField(data: Record<string, unknown>, key: string): string | null {
  const value = data[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** The first line of Markdown that is neither blank nor a heading: a description when none is given. */
export function firstParagraphLine(body: string): string | null {
  for (const line of body.split('\n')) {
    const text = line.trim();
    if (text && !text.startsWith('#')) return text.length > 1024 ? `${text.slice(0, 1021)}...` : text;
  }
  return null;
}
