import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newSessionKey } from '../../src/sandboxes/index.ts';

const FIXTURE = fileURLToPath(new URL('./fixtures/start-agent.ts', import.meta.url));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function untilGone(pid: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (alive(pid)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} still runs`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'bosun-agent-process-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

it('a sandbox never outlives an app killed with SIGKILL; its key is in no command line nor the app’s secrets in its environment', async () => {
  const dataDir = join(root, 'agent');
  const workspace = join(root, 'workspace');
  await mkdir(workspace, { recursive: true });
  const key = newSessionKey();
  const secret = `app-secret-${randomUUID()}`;
  const app = spawn(process.execPath, ['--import', 'tsx', FIXTURE, dataDir, workspace, key], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, BOSUN_LLM_API_KEY: secret, BOSUN_DATABASE_URL: `postgres://u:${secret}@h/db` },
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: app.stdout }).once('line', resolve);
    app.once('exit', (code) => reject(new Error(`the app exited (${code})`)));
  });
  const [pid, url] = line.split(' ') as [string, string];
  const child = Number(pid);
  expect((await fetch(`${url}/api/conversations/search`, { headers: { 'x-session-api-key': key } })).status).toBe(200);

  const commandLine = await readFile(`/proc/${child}/cmdline`, 'utf8');
  expect(commandLine).toContain('agent-server');
  expect(commandLine).not.toContain(key);
  const environment = (await readFile(`/proc/${child}/environ`, 'utf8')).split('\0');
  expect(environment).toContain(`BOSUN_SESSION_API_KEYS=${key}`);
  expect(environment.join('\n')).not.toContain(secret);

  app.kill('SIGKILL');
  await untilGone(child);
  await expect(fetch(`${url}/alive`)).rejects.toThrow();
});
