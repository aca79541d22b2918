import { parseFrontmatter as parseFields, splitFrontmatter } from '../skills/frontmatter.ts';

/** A Markdown file split into its YAML frontmatter (a mapping) and its body. */
export interface Frontmatter {
  data: Record<string, unknown>;
  body: string;
  /** Why the frontmatter could not be read (then `data` is empty). */
  error?: string;
}

/** Reads the frontmatter of a command, agent or skill file the way skills are read (see `skills/frontmatter.ts`). */
export function parseFrontmatter(text: string): Frontmatter {
  const { frontmatter, body } = splitFrontmatter(text);
  if (frontmatter === null) return { data: {}, body };
  const parsed = parseFields(frontmatter);
  if (!parsed.ok) return { data: {}, body, error: `the frontmatter is not valid: ${parsed.error}` };
  return { data: parsed.fields, body };
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
