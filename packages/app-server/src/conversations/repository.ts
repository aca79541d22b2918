import { randomBytes } from 'node:crypto';
import type { AgentServerClient } from '@bosun/client';
import type { ProviderType } from '@bosun/protocol';
import type { GitProviderUrls } from '../git/provider-urls.ts';
import { redacted } from './redact.ts';

/** A step of a start failed: `message` says what a person can do about it (never a secret). */
export class StartError extends Error {
  override name = 'StartError';
}

export interface RepositoryToClone {
  /** `owner/repo` (or deeper, for GitLab groups). */
  repository: string;
  branch: string | null;
  provider: ProviderType;
  /** The user's token for the provider, if any: used for this clone only, never written where it stays. */
  token: string | null;
}

/** The user name a provider expects beside a token over HTTPS. */
const TOKEN_USER: Partial<Record<ProviderType, string>> = {
  github: 'x-access-token',
  gitlab: 'oauth2',
  bitbucket: 'x-token-auth',
};

const quoted = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/** The workspace of the sandbox behind `agent`: where its commands run by default. */
export async function workspaceOf(agent: AgentServerClient): Promise<string> {
  const output = await agent.executeBashCommand({ command: 'pwd', timeout: 30 });
  const workspace = output.stdout?.trim();
  if (output.exit_code !== 0 || !workspace) throw new StartError('The sandbox did not tell its workspace directory');
  return workspace;
}

/**
 * Clones the repository into `<workspace>/<repo name>` inside the sandbox (kept when it is there already, as in
 * a reused sandbox) and checks the branch out; answers that project directory. A token reaches Git through a
 * credential file written for this one command and removed by it, so it is in no command line, event or config.
 */
export async function cloneRepository(
  agent: AgentServerClient,
  urls: GitProviderUrls,
  clone: RepositoryToClone,
): Promise<string> {
  const workspace = await workspaceOf(agent);
  const name = (clone.repository.split('/').at(-1) as string).replace(/\.git$/, '');
  const projectDir = `${workspace}/${name}`;
  const base = (urls[clone.provider as keyof GitProviderUrls] ?? urls.github).replace(/\/+$/, '');
  const url = `${base}/${clone.repository}.git`;
  const secrets = clone.token ? [clone.token, encodeURIComponent(clone.token)] : [];
  let environment = 'GIT_TERMINAL_PROMPT=0';
  let cleanup = '';
  if (clone.token && /^https?:\/\//.test(url)) {
    const credentials = `${workspace}/.bosun-git-credentials-${randomBytes(8).toString('hex')}`;
    const { protocol, host } = new URL(url);
    const user = TOKEN_USER[clone.provider] ?? 'oauth2';
    await agent.uploadFile(credentials, `${protocol}//${user}:${encodeURIComponent(clone.token)}@${host}\n`);
    environment += ` GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=credential.helper GIT_CONFIG_VALUE_0=${quoted(`store --file=${quoted(credentials)}`)}`;
    cleanup = `trap ${quoted(`rm -f ${quoted(credentials)}`)} EXIT; `;
  }
  const cloned = await agent.executeBashCommand({
    command:
      `${cleanup}if [ -d ${quoted(`${name}/.git`)} ]; then exit 0; fi; ` +
      `${environment} git clone --quiet -- ${quoted(url)} ${quoted(name)}`,
    timeout: 600,
  });
  if (cloned.exit_code !== 0) {
    const why = lastLines(cloned.stderr ?? cloned.stdout ?? '');
    throw new StartError(redacted(`Could not clone ${clone.repository} from ${url}: ${why}`, secrets));
  }
  if (clone.branch) {
    const checkedOut = await agent.executeBashCommand({
      command: `git checkout --quiet ${quoted(clone.branch)}`,
      cwd: projectDir,
      timeout: 60,
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

/** The last lines of a command's output (where Git says what went wrong). */
function lastLines(text: string, count = 3): string {
  const lines = text
    .trim()
    .split('\n')
    .filter((line) => line.trim().length > 0);
  return lines.slice(-count).join(' / ') || 'no output';
}
