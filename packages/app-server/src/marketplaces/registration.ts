import type { ValidationError } from '@bosun/protocol';

/** What a marketplace registration names: its repository, where in it, and under which name. */
export interface MarketplaceSource {
  source: string;
  ref: string | null;
  repo_path: string | null;
}

const NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
const PROVIDER = /^(github|gitlab|bitbucket):[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)+$/;
const URL_SOURCE = /^(https?|ssh|git):\/\//i;
const SCP_LIKE = /^[A-Za-z0-9_.-]+@[A-Za-z0-9.-]+:[^/]/;

/**
 * Why a source cannot be registered, or null: it must be `<provider>:<owner>/<repo>` or a Git URL (https, http,
 * ssh, git, or `user@host:path`), and never carry credentials (a token in a URL would be stored, shown and sent
 * on; the server uses the user's Git provider tokens instead).
 */
export function sourceProblem(source: string): string | null {
  if (/\$\{[^}]*\}/.test(source)) return 'secret placeholders are not allowed in a marketplace source';
  if (PROVIDER.test(source)) return null;
  if (SCP_LIKE.test(source)) return null;
  if (/^file:/i.test(source)) {
    return (
      'file:// sources are refused: the server does not read repositories from its own disk (anyone registering ' +
      'one could read what the server can); serve the repository over HTTP(S) (a Git host, or git http-backend) ' +
      'and register that URL'
    );
  }
  if (!URL_SOURCE.test(source)) {
    return `'${source}' is not a repository: use github:owner/repo, gitlab:group/repo, bitbucket:owner/repo or a Git URL`;
  }
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    return `'${source}' is not a valid URL`;
  }
  if (url.password || (url.username && url.protocol.startsWith('http'))) {
    return 'credentials inside the URL are refused: save a Git provider token in your settings instead';
  }
  if (!url.hostname) return `'${source}' names no host`;
  return null;
}

/** Why a repository path cannot be used, or null: relative, no `..`, no `://`. */
export function repoPathProblem(path: string | null | undefined): string | null {
  if (path === null || path === undefined) return null;
  if (path.includes('://')) return 'must be a path inside the repository, not a URL';
  if (path.startsWith('/') || path.startsWith('\\')) return 'must be relative to the repository root';
  if (path.split(/[/\\]/).includes('..')) return "must not contain '..'";
  return null;
}

/** Why a name cannot be used, or null. */
export function nameProblem(name: string): string | null {
  if (name.length > 64) return 'at most 64 characters';
  return NAME.test(name) ? null : 'must start with a letter, then letters, digits, `_` or `-`';
}

/**
 * The name a source gives when none is given: its last path segment without `.git`, characters a name cannot
 * hold as `-`, leading non-letters dropped (`github:acme/2-tools.git` -> `tools`).
 */
export function nameFromSource(source: string): string {
  const last =
    source
      .replace(/^[a-z]+:(?!\/\/)/i, '')
      .replace(/[/\\]+$/, '')
      .split(/[/:\\]/)
      .pop() ?? '';
  const cleaned = last
    .replace(/\.git$/i, '')
    .replace(/[^A-Za-z0-9_-]/g, '-')
    .replace(/^[^A-Za-z]+/, '')
    .slice(0, 64);
  return cleaned || 'marketplace';
}

/** Every problem of a source, ref and path, located under `at` (`['body']`). */
export function registrationProblems(entry: Partial<MarketplaceSource>, at: (string | number)[]): ValidationError[] {
  const problems: ValidationError[] = [];
  const add = (field: string, msg: string | null) => {
    if (msg) problems.push({ loc: [...at, field], msg, type: 'value_error' });
  };
  if (entry.source !== undefined) add('source', sourceProblem(entry.source.trim()));
  add('repo_path', repoPathProblem(entry.repo_path));
  return problems;
}

/** A registration's fields once valid: the name derived when none is given, the defaults filled in. */
export interface ValidRegistration extends MarketplaceSource {
  name: string;
  auto_load: boolean;
  updates: 'follow' | 'review';
}

/** What a registration asks for (as `MarketplaceCreate` and the settings' `registered_marketplaces` carry it). */
export interface RegistrationRequest {
  source: string;
  name?: string;
  ref?: string | null;
  repo_path?: string | null;
  auto_load?: boolean;
  updates?: 'follow' | 'review';
}

/** The registration `body` asks for, or its problems located under `at` (a derived name's under `source`). */
export function validRegistration(
  body: RegistrationRequest,
  at: (string | number)[],
): ValidRegistration | ValidationError[] {
  const source = body.source.trim();
  const problems = registrationProblems({ ...body, source }, at);
  if (problems.length) return problems;
  const name = body.name ?? nameFromSource(source);
  const why = nameProblem(name);
  if (why) return [{ loc: [...at, 'source'], msg: `the name derived, ${name}, ${why}`, type: 'value_error' }];
  return {
    name,
    source,
    ref: body.ref ?? null,
    repo_path: body.repo_path ?? null,
    auto_load: body.auto_load ?? false,
    updates: body.updates ?? 'follow',
  };
}
