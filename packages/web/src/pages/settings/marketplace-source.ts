import type { ProviderType } from '@bosun/protocol';

/** A marketplace's name: a letter, then letters, digits, `_` or `-`. */
export const NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
/** A name from a source: no `x:` prefix, its last path segment without `.git`, only letters, digits, `_` and `-`. */
export function nameOf(source: string): string {
  const withoutPrefix = source.trim().replace(/^[a-z][a-z-]*:(?!\/\/)/i, '');
  const last =
    withoutPrefix
      .replace(/[/\\]+$/, '')
      .split(/[/:\\]/)
      .pop() ?? '';
  return last
    .replace(/\.git$/i, '')
    .replace(/[^A-Za-z0-9_-]/g, '-')
    .replace(/^[^A-Za-z]+/, '')
    .slice(0, 64);
}

/** What is wrong with a path in the repository, as the server checks it (relative, no `..`, no `://`). */
export function pathProblem(path: string): string | undefined {
  if (!path) return undefined;
  if (path.includes('://')) return 'A path inside the repository, not a URL.';
  if (/^[/\\]/.test(path)) return 'A relative path: without a leading / or \\.';
  if (path.split(/[/\\]/).includes('..')) return 'The path may not go up (no “..”).';
  return undefined;
}

/** The source prefix of a provider's repositories (`github:owner/repo`); Data Center repositories are Git URLs. */
export const PREFIX: Partial<Record<ProviderType, string>> = {
  github: 'github',
  gitlab: 'gitlab',
  bitbucket: 'bitbucket',
};
