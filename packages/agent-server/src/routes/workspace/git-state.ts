import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import type { GitChange, GitDiff } from '@bosun/protocol';
import { commandEnvironment } from '../../bash/environment.ts';

/**
 * Git is asked with the repository's own programs turned off (fsmonitor, external diff, text conversion): the
 * repository is the workspace's, and its configuration must not run code in the server.
 */
const SAFE_CONFIG = ['-c', 'core.fsmonitor=', '-c', 'core.hooksPath=/dev/null', '-c', 'diff.external='];

/** Git's output, or null when it failed (not a repository, an unknown revision, a missing file). */
function git(cwd: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(
      'git',
      [...SAFE_CONFIG, ...args],
      { cwd, env: { ...commandEnvironment(), GIT_OPTIONAL_LOCKS: '0' }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => resolve(error ? null : stdout),
    );
  });
}

const STATUS: Record<string, GitChange['status']> = {
  A: 'ADDED',
  C: 'ADDED',
  D: 'DELETED',
  M: 'UPDATED',
  T: 'UPDATED',
  R: 'MOVED',
};

/** Whether `ref` names a commit of the repository at `dir`. */
export async function isCommit(dir: string, ref: string): Promise<boolean> {
  return (await git(dir, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`])) !== null;
}

/**
 * The files under `dir` that differ from `ref` (staged or not) and the untracked ones, relative to `dir`;
 * `[]` when `dir` is not in a repository. In a repository without commits every file is new.
 */
export async function gitChanges(dir: string, ref: string | undefined): Promise<GitChange[]> {
  if ((await git(dir, ['rev-parse', '--show-toplevel'])) === null) return [];
  const base = ref ?? 'HEAD';
  const untracked = await git(dir, ['ls-files', '-z', '--others', '--exclude-standard', '--', '.']);
  const changes: GitChange[] = [];
  if (await isCommit(dir, base)) {
    const diff = await git(dir, ['diff', '-z', '--name-status', '-M', '--relative', '--no-ext-diff', base, '--']);
    const fields = (diff ?? '').split('\0');
    for (let i = 0; i < fields.length - 1; ) {
      const code = fields[i]?.[0] ?? '';
      const moved = code === 'R' || code === 'C';
      const path = fields[i + (moved ? 2 : 1)] ?? '';
      changes.push({ status: STATUS[code] ?? 'UPDATED', path });
      i += moved ? 3 : 2;
    }
  } else {
    const staged = await git(dir, ['ls-files', '-z', '--cached', '--', '.']);
    for (const path of (staged ?? '').split('\0').filter(Boolean)) changes.push({ status: 'ADDED', path });
  }
  for (const path of (untracked ?? '').split('\0').filter(Boolean)) changes.push({ status: 'ADDED', path });
  return changes;
}

/**
 * The file at `file` before and after: at `commit`'s parent and at `commit` when given, else at `ref`
 * (default HEAD) and on disk. Each side is null where the file does not exist.
 */
export async function gitDiff(file: string, ref: string | undefined, commit: string | undefined): Promise<GitDiff> {
  const dir = dirname(file);
  const root = (await git(dir, ['rev-parse', '--show-toplevel']))?.trim();
  const onDisk = await readFile(file, 'utf8').catch(() => null);
  if (!root) return { original: null, modified: commit ? null : onDisk };
  const path = relative(root, file);
  const show = (revision: string) => git(root, ['show', '--no-textconv', `${revision}:${path}`]);
  if (commit) return { original: await show(`${commit}^`), modified: await show(commit) };
  return { original: await show(ref ?? 'HEAD'), modified: onDisk };
}
