import { randomBytes } from 'node:crypto';
import type { AgentServerClient } from '@bosun/client';
import type { ProviderType } from '@bosun/protocol';
import { type CloneSource, cloneSource } from '../git/clone-source.ts';
import { tokenHostAdmit } from '../git/host-guard.ts';
import { GitProviderError, type ProviderAccess } from '../git/providers/index.ts';
import type { ConversationDeps } from './deps.ts';
import { redacted } from './redact.ts';

/** A step of a start failed: `message` says what a person can do about it (never a secret). */
export class StartError extends Error {
  override name = 'StartError';
}

export interface RepositoryToClone {
  /** `owner/repo` (or deeper, for GitLab groups; Bitbucket Data Center: `PROJECT/repo`). */
  repository: string;
  branch: string | null;
  provider: ProviderType;
  /** The user's token for the provider (and the host it was stored with), if any: used for this clone only. */
  access: ProviderAccess | null;
}

const quoted = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/** The workspace of the sandbox behind `agent`: where its commands run by default. */
export async function workspaceOf(agent: AgentServerClient): Promise<string> {
  const output = await agent.post('/api/bash/execute_bash_command', { body: { command: 'pwd', timeout: 30 } });
  const workspace = output.stdout?.trim();
  if (output.exit_code !== 0 || !workspace) throw new StartError('The sandbox did not tell its workspace directory');
  return workspace;
}

/**
 * Clones the repository into `<workspace>/<repo name>` inside the sandbox (a complete clone there already is kept,
 * as in a reused sandbox or a start run again: see `cloneOnce`) and checks the branch out; answers that project
 * directory. Where from and with which credentials is `cloneSource`'s: the host the browsing reads for the token.
 * The token reaches Git through a configuration file written for this one command and removed by it, so it is in
 * no command line, event or repository config.
 */
export async function cloneRepository(
  agent: AgentServerClient,
  { gitUrls: urls, allowPrivateHosts }: Pick<ConversationDeps, 'gitUrls' | 'allowPrivateHosts'>,
  clone: RepositoryToClone,
): Promise<string> {
  const workspace = await workspaceOf(agent);
  const name = (clone.repository.split('/').at(-1) as string).replace(/\.git$/, '');
  const projectDir = `${workspace}/${name}`;
  const token = clone.access?.token;
  const secrets = token ? [token, encodeURIComponent(token)] : [];
  let source: CloneSource;
  try {
    source = await cloneSource(clone.provider, clone.repository, clone.access, {
      urls,
      admit: tokenHostAdmit(allowPrivateHosts),
    });
  } catch (error) {
    if (!(error instanceof GitProviderError)) throw error;
    throw new StartError(redacted(`Could not clone ${clone.repository}: ${error.detail}`, secrets));
  }
  const { url } = source;
  let environment = 'GIT_TERMINAL_PROMPT=0';
  let cleanup = '';
  if (source.config) {
    const config = `${workspace}/.bosun-git-config-${randomBytes(8).toString('hex')}`;
    await agent.uploadFile(config, source.config);
    environment += ` GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=include.path GIT_CONFIG_VALUE_0=${quoted(config)}`;
    cleanup = `trap ${quoted(`rm -f ${quoted(config)}`)} EXIT; `;
  }
  const cloned = await agent.post('/api/bash/execute_bash_command', {
    body: {
      command: `${cleanup}${cloneOnce(name, `${environment} git clone --quiet -- ${quoted(url)}`)}`,
      timeout: 600,
    },
  });
  if (cloned.exit_code !== 0) {
    const why = lastLines(cloned.stderr ?? cloned.stdout ?? '');
    throw new StartError(redacted(`Could not clone ${clone.repository} from ${url}: ${why}`, secrets));
  }
  if (clone.branch) {
    const checkedOut = await agent.post('/api/bash/execute_bash_command', {
      body: {
        command: `git checkout --quiet ${quoted(clone.branch)}`,
        cwd: projectDir,
        timeout: 60,
      },
    });
    if (checkedOut.exit_code !== 0) {
      const why = lastLines(checkedOut.stderr ?? '');
      throw new StartError(
        redacted(`Could not check out branch ${clone.branch} of ${clone.repository}: ${why}`, secrets),
      );
    }
  }
  return projectDir;
}

/**
 * The shell script that leaves a complete clone at `name` once, whatever an earlier run of it left (a start run
 * again after a takeover, in a sandbox that outlived the replica of the first run, whose clone may still be going).
 * `clone` (a `git clone` missing its directory) runs into a fresh hidden sibling, renamed to `name` only once
 * complete: an interrupted clone leaves only that sibling, removed by the next run (the first run's clone, if still
 * going, then fails; its run no longer holds the task). What is at `name` is kept when complete: its HEAD names a
 * commit and it has an index (a clone stopped in its checkout has none), or, an empty repository's clone, it holds
 * files. A half-made clone (any other `.git`, as older versions left in place) is removed; a directory that is no
 * repository is never touched (an error). A clone renamed into place meanwhile by another run is taken as it is.
 */
export function cloneOnce(name: string, clone: string): string {
  const target = quoted(name);
  const staging = `.${name}.bosun-clone-`;
  const fresh = quoted(`${staging}${randomBytes(6).toString('hex')}`);
  return [
    `refuse() { echo ${quoted(`${name} exists and is not a Git repository: move it away to clone there`)} >&2; exit 1; }`,
    `complete() { [ -d ${target}/.git ] || return 1; ` +
      // Whoever owns it (Git refuses a repository another user owns unless told it is safe).
      `if git -c safe.directory='*' -C ${target} rev-parse --quiet --verify 'HEAD^{commit}' >/dev/null; ` +
      `then [ -f ${target}/.git/index ]; else [ -n "$(ls -A ${target} | grep -vx .git)" ]; fi; }`,
    'if complete; then exit 0; fi',
    `if [ -d ${target}/.git ]; then rm -rf ${target}; fi`,
    `if [ -n "$(ls -A ${target} 2>/dev/null)" ]; then refuse; fi`,
    `rm -rf ${quoted(staging)}* 2>/dev/null`,
    `${clone} ${fresh} || { failed=$?; rm -rf ${fresh}; exit $failed; }`,
    `if mv -T ${fresh} ${target} 2>/dev/null; then exit 0; fi`,
    `rm -rf ${fresh}`,
    'if complete; then exit 0; else refuse; fi',
  ].join('\n');
}

/** The last lines of a command's output (where Git says what went wrong). */
function lastLines(text: string, count = 3): string {
  const lines = text
    .trim()
    .split('\n')
    .filter((line) => line.trim().length > 0);
  return lines.slice(-count).join(' / ') || 'no output';
}
