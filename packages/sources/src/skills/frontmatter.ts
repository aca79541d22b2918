import { createRequire } from 'node:module';

// Loaded on first use (a synchronous require: parsing is synchronous): the agent server's start-up should not
// pay for a YAML parser that only skills and plugins need.
const load = createRequire(import.meta.url);
let yaml: typeof import('yaml') | undefined;

/** A Markdown file split into its YAML frontmatter (between `---` lines at the top) and its body. */
export interface SplitMarkdown {
  /** The frontmatter text, or null when the file has none. */
  frontmatter: string | null;
  body: string;
}

export function splitFrontmatter(text: string): SplitMarkdown {
  const source = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (!/^---[ \t]*\n/.test(source)) return { frontmatter: null, body: source };
  const start = source.indexOf('\n') + 1;
  const end = /^---[ \t]*$/m.exec(source.slice(start));
  if (!end) return { frontmatter: null, body: source };
  const frontmatter = source.slice(start, start + end.index).replace(/\n$/, '');
  const body = source.slice(start + end.index + end[0].length).replace(/^\n/, '');
  return { frontmatter, body };
}

export type FrontmatterResult =
  | { ok: true; fields: Record<string, unknown>; quotedFields: string[] }
  | { ok: false; error: string };

/**
 * The frontmatter as a mapping. Duplicate keys are an error. A plain value containing `: ` (`description: Use
 * when: ...`) is invalid YAML that people write all the time: as the Agent Skills client guide advises, such
 * values are retried as quoted strings, and `quotedFields` names them so lint can say so.
 */
export function parseFrontmatter(text: string): FrontmatterResult {
  const first = parseYaml(text);
  if (first.ok) return { ...first, quotedFields: [] };
  const quotedFields: string[] = [];
  const requoted = text
    .split('\n')
    .map((line) => {
      const match = /^([A-Za-z_][\w-]*):[ \t]+(.*\S)[ \t]*$/.exec(line);
      if (!match) return line;
      const [, key, value] = match as unknown as [string, string, string];
      if (/^['"[{|>&*!]/.test(value) || !value.includes(': ')) return line;
      quotedFields.push(key);
      return `${key}: '${value.replace(/'/g, "''")}'`;
    })
    .join('\n');
  if (quotedFields.length === 0) return first;
  const second = parseYaml(requoted);
  return second.ok ? { ...second, quotedFields } : first;
}

function parseYaml(text: string): { ok: true; fields: Record<string, unknown> } | { ok: false; error: string } {
  yaml ??= load('yaml') as typeof import('yaml');
  const document = yaml.parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  const [error] = document.errors;
  if (error) return { ok: false, error: `invalid YAML: ${error.message.split('\n')[0]}` };
  const value: unknown = document.toJS();
  if (value == null) return { ok: true, fields: {} };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: 'the frontmatter must be a mapping of fields (name: value)' };
  }
  return { ok: true, fields: value as Record<string, unknown> };
}
