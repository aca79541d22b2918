import { type Static, Type } from '@sinclair/typebox';
import { strictObject } from '../schema/builders.ts';

/** A plugin reference as a launch link carries it, every field present. */
export type LaunchPlugin = {
  source: string;
  ref: string | null;
  repo_path: string | null;
  parameters: Record<string, string | number | boolean> | null;
};

export const LaunchProblem = strictObject('LaunchProblem', 'One problem of a launch link.', {
  loc: Type.Array(Type.Union([Type.String(), Type.Integer()]), { description: 'Where: `["plugins", 3, "ref"]`.' }),
  msg: Type.String({ description: 'What is wrong, and what to do instead.' }),
});
export type LaunchProblem = Static<typeof LaunchProblem>;

export const MAX_LAUNCH_PLUGINS = 100;
const FIELDS = ['source', 'ref', 'repo_path', 'parameters'];
const SEGMENT = /^[A-Za-z0-9_.-]+$/;
const PROVIDER = /^(github|gitlab|bitbucket):(.*)$/;
const URL_SOURCE = /^(https?|ssh|git|file):\/\/(?:([^@/]*)@)?([^/?#]*)(\/[^?#]*)?$/;
const SCP_SOURCE = /^([A-Za-z0-9._-]+)@([A-Za-z0-9.-]+):([^\s]+)$/;
const PLACEHOLDER = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;
const CONTROL = /\p{Cc}/u;
const CREDENTIALS =
  'holds credentials; put the token in a secret and name it as a placeholder (https://x-access-token:${GITHUB_TOKEN}@host/...)';

/** Checks one reference of `plugins[index]`: the reference, every field present, or `null` with its problems. */
export function checkLaunchPlugin(
  value: unknown,
  loc: (string | number)[],
  problems: LaunchProblem[],
): LaunchPlugin | null {
  const before = problems.length;
  const report = (field: string | null, msg: string) => problems.push({ loc: field ? [...loc, field] : loc, msg });
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    report(null, 'expected an object {source, ref?, repo_path?, parameters?}');
    return null;
  }
  const item = value as Record<string, unknown>;
  for (const key of Object.keys(item)) if (!FIELDS.includes(key)) report(key, 'unknown field');
  const { source, ref = null, repo_path = null, parameters = null } = item;
  if (typeof source !== 'string') report('source', 'required: `github:owner/repo` or a Git URL');
  else {
    const problem = sourceProblem(source);
    if (problem) report('source', problem);
  }
  if (ref !== null) {
    const problem = typeof ref === 'string' ? refProblem(ref) : 'expected a string or null';
    if (problem) report('ref', problem);
  }
  if (repo_path !== null) {
    const problem = typeof repo_path === 'string' ? repoPathProblem(repo_path) : 'expected a string or null';
    if (problem) report('repo_path', problem);
  }
  if (parameters !== null) parameterProblems(parameters, [...loc, 'parameters'], problems);
  if (problems.length > before) return null;
  return { source, ref, repo_path, parameters } as LaunchPlugin;
}

/** What is wrong with a plugin source, or `null`. */
export function sourceProblem(source: string): string | null {
  if (source.length === 0) return 'must not be empty';
  if (source.length > 2048) return 'longer than 2048 characters';
  if (CONTROL.test(source) || /\s/.test(source)) return 'must not contain spaces or control characters';
  const provider = PROVIDER.exec(source);
  if (provider) {
    const segments = (provider[2] as string).split('/');
    if (segments.length !== 2 || segments.some((s) => !SEGMENT.test(s) || s === '.' || s === '..')) {
      return `expected ${provider[1]}:owner/repo (exactly two segments; a folder inside the repository goes in repo_path)`;
    }
    return null;
  }
  const url = URL_SOURCE.exec(source);
  if (url) {
    const [, scheme, userinfo, host, path = ''] = url;
    if (scheme === 'file') return host === '' && path.length > 1 ? null : 'expected file:///absolute/path';
    if (!host) return 'the URL has no host';
    if (userinfo !== undefined && userinfoProblem(userinfo, scheme === 'ssh')) return `the URL ${CREDENTIALS}`;
    if (path.length <= 1) return 'the URL names no repository';
    return null;
  }
  const scp = SCP_SOURCE.exec(source);
  if (scp) return null;
  if (source.includes('://')) return 'unsupported scheme (https, http, ssh, git or file)';
  return 'expected github:owner/repo, gitlab:owner/repo, bitbucket:owner/repo or a Git URL';
}

/** Userinfo is fine when it holds no literal secret: placeholders, or a bare SSH login name. */
function userinfoProblem(userinfo: string, ssh: boolean): boolean {
  const colon = userinfo.indexOf(':');
  if (colon < 0) return !(ssh || PLACEHOLDER.test(userinfo));
  return !PLACEHOLDER.test(userinfo.slice(colon + 1));
}

/** What is wrong with a Git ref (branch, tag or commit), or `null`: `git check-ref-format`'s rules, roughly. */
export function refProblem(ref: string): string | null {
  if (ref.length === 0) return 'must not be empty (leave it out for the default branch)';
  if (ref.length > 255) return 'longer than 255 characters';
  if (
    !/^[A-Za-z0-9._\/-]+$/.test(ref) ||
    ref.startsWith('-') ||
    ref.startsWith('/') ||
    ref.endsWith('/') ||
    ref.endsWith('.') ||
    ref.endsWith('.lock') ||
    ref.includes('..') ||
    ref.includes('//') ||
    ref.split('/').some((part) => part.startsWith('.'))
  ) {
    return 'not a Git branch, tag or commit name';
  }
  return null;
}

/** What is wrong with a folder inside the repository, or `null`. */
export function repoPathProblem(path: string): string | null {
  if (path.length === 0) return 'must not be empty (leave it out for the repository root)';
  if (path.length > 1024) return 'longer than 1024 characters';
  if (path.startsWith('/') || path.includes('\\') || /^[A-Za-z]:/.test(path)) {
    return 'must be relative to the repository';
  }
  if (path.includes('://')) return 'must be a folder inside the repository, not a URL';
  if (path.split('/').includes('..')) return 'must not leave the repository (`..`)';
  if (CONTROL.test(path)) return 'must not contain control characters';
  return null;
}

function parameterProblems(parameters: unknown, loc: (string | number)[], problems: LaunchProblem[]): void {
  if (!parameters || typeof parameters !== 'object' || Array.isArray(parameters)) {
    problems.push({ loc, msg: 'expected an object of parameter values, or null' });
    return;
  }
  for (const [name, value] of Object.entries(parameters)) {
    if (name.length === 0 || name.length > 128) {
      problems.push({ loc: [...loc, name], msg: 'a parameter name has 1 to 128 characters' });
    }
    const scalar =
      typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
    if (!scalar) problems.push({ loc: [...loc, name], msg: 'expected a string, number or boolean' });
  }
}
