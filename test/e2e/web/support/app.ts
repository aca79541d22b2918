import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AppServerClient } from '@bosun/client';
import { SANDBOX_BUNDLE } from '../../../support/sandbox-bundle.ts';

/**
 * The real app server as a person runs it: `bosun serve` (the bundle the test run's global setup builds, as
 * `npm start` runs its own) in a child process on 127.0.0.1, on SQLite in a temporary data directory, serving the
 * web application built into `packages/web/dist`, its sandboxes the same bundle under bubblewrap.
 */
export interface WebApp {
  url: string;
  dataDir: string;
  /** The one-time owner sign-in link `bosun serve` printed at its first start (none with an OpenID issuer). */
  printedSignInUrl: string | undefined;
  /** An API key of the owner, and a client acting with it (to arrange and to check what the pages show). */
  apiKey: string;
  api: AppServerClient;
  /** Everything the server wrote so far. */
  output(): string;
  /** A fresh one-time sign-in link of the owner (`bosun sign-in-link`): the printed one signs in once. */
  signInLink(): Promise<string>;
  close(): Promise<void>;
}

export interface WebAppOptions {
  /** BOSUN_* settings added to the defaults (e.g. BOSUN_OIDC_ISSUER_URL). */
  env?: Record<string, string>;
  /** A port to listen on (default: a free one). */
  port?: number;
}

const exec = promisify(execFile);

/** Runs the bundle's CLI with `args` in `dataDir`'s install: its standard output, trimmed. */
async function bosun(args: string[], env: Record<string, string>): Promise<string> {
  const { stdout } = await exec(process.execPath, [SANDBOX_BUNDLE, ...args], { env, timeout: 60_000 });
  return stdout.trim();
}

export async function startWebApp(options: WebAppOptions = {}): Promise<WebApp> {
  const root = await mkdtemp(join(tmpdir(), 'bosun-web-e2e-'));
  // The sandboxes' user must reach the runtime's root inside the data directory.
  await chmod(root, 0o711);
  const dataDir = join(root, 'data');
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('BOSUN_')));
  const env: Record<string, string> = {
    ...(clean as Record<string, string>),
    BOSUN_LOG_LEVEL: 'warn',
    BOSUN_DATA_DIR: dataDir,
    ...options.env,
  };
  const child: ChildProcess = spawn(
    process.execPath,
    [SANDBOX_BUNDLE, 'serve', '--host', '127.0.0.1', '--port', String(options.port ?? 0), '--data-dir', dataDir],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bosun serve did not start in 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /app server listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (listening && /API documentation at/.test(output)) {
        clearTimeout(timer);
        resolve(listening);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`bosun serve exited (${code}):\n${output}`));
    });
  });
  const printed = /sign in as the owner \(once\) at (http:\/\/\S+)/.exec(output)?.[1];
  const cliEnv = { ...env, BOSUN_PUBLIC_URL: url };
  const apiKey = await bosun(['api-key', 'create', '--data-dir', dataDir], cliEnv);
  return {
    url,
    dataDir,
    printedSignInUrl: printed,
    apiKey,
    api: new AppServerClient({ baseUrl: url, apiKey }),
    output: () => output,
    signInLink: () => bosun(['sign-in-link', '--url', url, '--data-dir', dataDir], cliEnv),
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(killer);
      await rm(root, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}
