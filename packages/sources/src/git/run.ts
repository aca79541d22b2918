import { spawn } from 'node:child_process';
import { type GitAuth, authorizationHeader } from './auth.ts';
import { redactCredentials } from './redact.ts';

/** A Git command that failed; its message is already free of credentials. */
export class GitError extends Error {
  override name = 'GitError';
}

export interface RunGitOptions {
  cwd?: string;
  timeoutMs: number;
  auth?: GitAuth | undefined;
  /** Extra configuration for this command (`-c key=value`, passed in the environment). */
  config?: Readonly<Record<string, string>> | undefined;
}

/**
 * Runs the system `git` and resolves with its stdout. Credentials travel in the environment as an HTTP header
 * (`GIT_CONFIG_*`), never in the arguments (visible to `ps`) or in a URL (stored in `.git/config`, echoed in
 * errors). Git never prompts: a repository that needs credentials it was not given fails at once.
 */
export function runGit(args: string[], options: RunGitOptions): Promise<string> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: 'true',
    SSH_ASKPASS: 'true',
    GIT_SSH_COMMAND: 'ssh -o BatchMode=yes',
    LC_ALL: 'C',
  };
  const config = Object.entries(options.config ?? {});
  if (options.auth) config.push(['http.extraHeader', `Authorization: ${authorizationHeader(options.auth)}`]);
  if (config.length) {
    env.GIT_CONFIG_COUNT = String(config.length);
    config.forEach(([key, value], index) => {
      env[`GIT_CONFIG_KEY_${index}`] = key;
      env[`GIT_CONFIG_VALUE_${index}`] = value;
    });
  }
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new GitError(`git ${args[0]} timed out after ${Math.round(options.timeoutMs / 1000)} s`));
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new GitError(`could not run git: ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) {
        resolve(Buffer.concat(stdout).toString('utf8'));
        return;
      }
      // The `fatal:` line says what went wrong; the lines after it are Git's generic advice.
      const lines = Buffer.concat(stderr)
        .toString('utf8')
        .trim()
        .split('\n')
        .map((line) => line.trim());
      const fatal = lines.findIndex((line) => line.startsWith('fatal:'));
      const message = (fatal >= 0 ? lines.slice(fatal, fatal + 2) : lines.slice(-3)).filter(Boolean).join(' ');
      reject(new GitError(redactCredentials(message || `git ${args[0]} exited with code ${code}`)));
    });
  });
}
