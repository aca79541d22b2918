import { execFile } from 'node:child_process';

/**
 * The commit checked out in the project directory (`git rev-parse HEAD`), or null when it is no Git work tree,
 * has no commit yet, or Git does not answer within a few seconds: a listing never fails for it.
 */
export function projectCommit(projectDir: string | null): Promise<string | null> {
  if (!projectDir) return Promise.resolve(null);
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-c', 'safe.directory=*', 'rev-parse', '--verify', '--quiet', 'HEAD^{commit}'],
      { cwd: projectDir, timeout: 5_000, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } },
      (error, stdout) => {
        const sha = stdout.trim();
        resolve(!error && /^[0-9a-f]{40,64}$/.test(sha) ? sha : null);
      },
    );
  });
}
