/**
 * Glob patterns with ripgrep's `--glob` (gitignore-style) meaning, so the pure Node search and `rg` select the
 * same files. Paths are matched relative to the searched directory, with `/` separators:
 * - a pattern without `/` (a trailing one aside) matches the file name at any depth: `*.ts` = `**\/*.ts`;
 * - a pattern with a `/` is anchored at the searched directory (a leading `/` just anchors);
 * - `*` and `?` never cross `/`; `**` as a whole path segment crosses any number of them; elsewhere it is `*`;
 * - `{a,b}` alternatives (not nested), `[abc]`, `[a-z]`, `[!abc]`/`[^abc]` classes, `\` escapes;
 * - `!pattern` excludes what `pattern` matches (directories too) instead of selecting it;
 * - a pattern ending in `/` matches directories only, so selects no file.
 */
export interface GlobMatcher {
  /** The pattern as given. */
  readonly pattern: string;
  /** Whether a file at `path` (relative) is selected. */
  selectsFile(path: string): boolean;
  /** Whether the directory at `path` (relative) is excluded, with everything below it. */
  excludesDirectory(path: string): boolean;
}

/** A pattern that cannot be read; its message says why, for whoever wrote it (a tool's caller, a hook's author). */
export class GlobSyntaxError extends Error {}

/** Removes what means nothing to a relative match: a leading `./`. */
export function normalizeGlob(pattern: string): string {
  let normalized = pattern.trim();
  while (normalized.startsWith('./')) normalized = normalized.slice(2);
  return normalized;
}

export function compileGlob(pattern: string): GlobMatcher {
  const negated = pattern.startsWith('!');
  let body = negated ? pattern.slice(1) : pattern;
  if (body === '') throw new GlobSyntaxError(`Invalid glob pattern '${pattern}': it is empty.`);
  const directoryOnly = body.endsWith('/') && !body.endsWith('\\/');
  body = body.replace(/\/+$/, '');
  let anchored = body.includes('/');
  if (body.startsWith('/')) {
    body = body.replace(/^\/+/, '');
    anchored = true;
  }
  const source = globToRegExpSource(body, pattern);
  const regexp = new RegExp(`^${anchored ? '' : '(?:.*/)?'}${source}$`, 's');
  const matches = (path: string) => regexp.test(path);
  return {
    pattern,
    selectsFile: (path) => (negated ? !(!directoryOnly && matches(path)) : !directoryOnly && matches(path)),
    excludesDirectory: (path) => negated && matches(path),
  };
}

/** The RegExp source (without anchors) for one glob; `original` names the pattern in errors. */
export function globToRegExpSource(glob: string, original = glob): string {
  let out = '';
  let inBraces = false;
  let index = 0;
  while (index < glob.length) {
    const char = glob[index]!;
    if (char === '\\') {
      const next = glob[index + 1];
      if (next === undefined) throw new GlobSyntaxError(`Invalid glob pattern '${original}': dangling escape '\\'.`);
      out += escapeRegExp(next);
      index += 2;
    } else if (char === '*') {
      let end = index;
      while (glob[end] === '*') end++;
      const atSegmentStart = index === 0 || glob[index - 1] === '/';
      const atSegmentEnd = end === glob.length || glob[end] === '/';
      if (end - index >= 2 && atSegmentStart && atSegmentEnd) {
        if (end === glob.length) {
          out += '.*';
        } else {
          out += '(?:.*/)?';
          end++; // the '/' after '**' is part of the "any directories" match
        }
      } else {
        out += '[^/]*';
      }
      index = end;
    } else if (char === '?') {
      out += '[^/]';
      index++;
    } else if (char === '[') {
      const { source, end } = characterClass(glob, index, original);
      out += source;
      index = end;
    } else if (char === '{') {
      if (inBraces) {
        throw new GlobSyntaxError(`Invalid glob pattern '${original}': nested alternate groups are not allowed.`);
      }
      inBraces = true;
      out += '(?:';
      index++;
    } else if (char === '}' && inBraces) {
      inBraces = false;
      out += ')';
      index++;
    } else if (char === ',' && inBraces) {
      out += '|';
      index++;
    } else {
      out += escapeRegExp(char);
      index++;
    }
  }
  if (inBraces) throw new GlobSyntaxError(`Invalid glob pattern '${original}': unclosed alternate group; missing '}'.`);
  return out;
}

/** `[...]` starting at `start`: its RegExp source (never matching `/`) and the index after its `]`. */
function characterClass(glob: string, start: number, original: string): { source: string; end: number } {
  let index = start + 1;
  let negated = false;
  if (glob[index] === '!' || glob[index] === '^') {
    negated = true;
    index++;
  }
  let members = '';
  let first = true;
  while (index < glob.length && (glob[index] !== ']' || first)) {
    const char = glob[index]!;
    if (char === '-' && !first && glob[index + 1] !== ']' && index + 1 < glob.length) {
      members += '-';
    } else {
      members += char === '\\' || char === ']' || char === '[' || char === '^' || char === '-' ? `\\${char}` : char;
    }
    first = false;
    index++;
  }
  if (index >= glob.length) {
    throw new GlobSyntaxError(`Invalid glob pattern '${original}': unclosed character class; missing ']'.`);
  }
  return { source: negated ? `[^/${members}]` : `(?!/)[${members}]`, end: index + 1 };
}

function escapeRegExp(char: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(char) ? `\\${char}` : char;
}
