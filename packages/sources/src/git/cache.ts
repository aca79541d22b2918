import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { exists } from '../shared/exists.ts';
import type { GitAuth } from './auth.ts';
import { redactCredentials, splitCredentials } from './redact.ts';
import { GitError, runGit } from './run.ts';
import { type GitProviders, repositoryUrl } from './source.ts';

/** A checked-out commit: its directory (never written to), the full SHA, the URL without credentials, the ref asked. */
export interface GitCheckout {
  dir: string;
  sha: string;
  url: string;
  ref: string | null;
}

export interface GitCacheOptions {
  /** Where checkouts are kept: `<dir>/commits/<sha>`. */
  dir: string;
  /** Longest a single Git command may take (default 120 s). */
  timeoutMs?: number;
  providers?: GitProviders;
  /**
   * Configuration for each command that reaches `url` (the remote without credentials), asked just before it
   * runs; throwing refuses the fetch. An app server pins the connection to the addresses it checked this way.
   */
  remoteConfig?: (url: string) => Promise<Record<string, string>>;
}

const FULL_SHA = /^[0-9a-f]{40}$/i;
const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * Repositories fetched with the system `git`, kept by commit: a branch or tag is resolved to its commit every
 * time (`git ls-remote`), and a commit is fetched once (shallow), then served from the cache. Two fetches of the
 * same commit at once share one download; a checkout appears in the cache complete or not at all.
 */
export class GitCache {
  private readonly timeoutMs: number;
  private readonly inFlight = new Map<string, Promise<string>>();

  constructor(private readonly options: GitCacheOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** The commit `ref` names now; null: the remote's default branch. A full SHA is taken as it is. */
  async resolve(source: string, ref: string | null, auth?: GitAuth): Promise<string> {
    if (ref && FULL_SHA.test(ref)) return ref.toLowerCase();
    const remote = this.remote(source, auth);
    const output = await this.git(['ls-remote', remote.url, ...(ref ? [] : ['HEAD'])], remote);
    const refs = parseLsRemote(output);
    const sha = ref ? pickRef(refs, ref) : refs.get('HEAD');
    if (sha) return sha;
    if (!ref) throw new GitError(`${remote.shown} has no default branch (is it empty?)`);
    const hint = /^[0-9a-f]{7,39}$/i.test(ref) ? ' (name a commit by its full 40-character SHA)' : '';
    throw new GitError(`${remote.shown} has no branch or tag '${ref}'${hint}`);
  }

  /** The commit `ref` names, fetched into the cache unless it is there already. */
  async checkout(source: string, ref: string | null, auth?: GitAuth): Promise<GitCheckout> {
    const sha = await this.resolve(source, ref, auth);
    const dir = join(this.options.dir, 'commits', sha);
    if (!(await exists(dir))) {
      let pending = this.inFlight.get(sha);
      if (!pending) {
        pending = this.fetchInto(dir, sha, this.remote(source, auth)).finally(() => this.inFlight.delete(sha));
        this.inFlight.set(sha, pending);
      }
      await pending;
    }
    return { dir, sha, url: this.remote(source).shown, ref };
  }

  private async fetchInto(dir: string, sha: string, remote: Remote): Promise<string> {
    const scratch = join(this.options.dir, 'tmp');
    await mkdir(scratch, { recursive: true });
    const work = await mkdtemp(join(scratch, `${sha.slice(0, 12)}-`));
    try {
      await this.git(['init', '-q', work], remote);
      try {
        await this.git(['fetch', '-q', '--depth', '1', '--no-tags', remote.url, sha], remote, work);
      } catch {
        // A server that refuses to send a commit by its SHA: fetch its branches and tags, then look for it.
        await this.git(
          ['fetch', '-q', '--no-tags', remote.url, '+refs/heads/*:refs/remotes/origin/*', '+refs/tags/*:refs/tags/*'],
          remote,
          work,
        );
      }
      try {
        await this.git(['-c', 'advice.detachedHead=false', 'checkout', '-q', '--detach', sha], remote, work);
      } catch {
        throw new GitError(`${remote.shown} has no commit ${sha}`);
      }
      await rm(join(work, '.git'), { recursive: true, force: true });
      await mkdir(join(this.options.dir, 'commits'), { recursive: true });
      try {
        await rename(work, dir);
      } catch (error) {
        // Another process put the same commit there first: theirs is as good as ours.
        if (!(await exists(dir))) throw error;
      }
      return dir;
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  /** The URL to fetch (credentials moved out of it into `auth`) and how to name it in messages. */
  private remote(source: string, auth?: GitAuth): Remote {
    const full = repositoryUrl(source, this.options.providers);
    const split = splitCredentials(full);
    const inline = split.password
      ? { password: split.password, ...(split.username ? { username: split.username } : {}) }
      : undefined;
    return { url: split.url, shown: redactCredentials(split.url), auth: auth ?? inline };
  }

  private async git(args: string[], remote: Remote, cwd?: string): Promise<string> {
    const config = (await this.options.remoteConfig?.(remote.url)) ?? {};
    return runGit(args, { timeoutMs: this.timeoutMs, auth: remote.auth, config, ...(cwd ? { cwd } : {}) });
  }
}

interface Remote {
  url: string;
  shown: string;
  auth: GitAuth | undefined;
}

/** `<sha>\t<ref>` lines by ref name. */
function parseLsRemote(output: string): Map<string, string> {
  const refs = new Map<string, string>();
  for (const line of output.split('\n')) {
    const [sha, name] = line.split('\t');
    if (sha && name && FULL_SHA.test(sha)) refs.set(name, sha.toLowerCase());
  }
  return refs;
}

/** A ref by full name, else a branch, else a tag (the commit an annotated tag points to). */
function pickRef(refs: Map<string, string>, ref: string): string | undefined {
  if (ref.startsWith('refs/')) return refs.get(`${ref}^{}`) ?? refs.get(ref);
  return refs.get(`refs/heads/${ref}`) ?? refs.get(`refs/tags/${ref}^{}`) ?? refs.get(`refs/tags/${ref}`);
}
