import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** `bosun agent-server` takes its secrets key from a flag or the environment, and refuses a wrong one clearly. */

const CLI = fileURLToPath(new URL('../bin/bosun.js', import.meta.url));
const children: ChildProcess[] = [];
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'bosun-cli-secrets-'));
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await rm(root, { recursive: true, force: true });
});

type Started = { url: string; child: ChildProcess } | { code: number | null; output: string };

/** Starts the server; resolves with its URL once it listens, or with its exit code and output if it exits. */
function start(dataDir: string, args: string[], env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, [CLI, 'agent-server', '--port', '0', '--data-dir', dataDir, ...args], {
    env: { ...process.env, BOSUN_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  return new Promise((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) resolve({ url, child });
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => resolve({ code, output }));
  });
}

async function stop(started: Started): Promise<void> {
  if (!('child' in started)) return;
  const exited = new Promise((resolve) => started.child.once('exit', resolve));
  started.child.kill('SIGTERM');
  await exited;
}

describe('bosun agent-server secrets key', () => {
  it('uses --secrets-key-file, refuses another key with a clear message, and rotates with BOSUN_SECRETS_KEY_PREVIOUS', async () => {
    const dataDir = join(root, 'data');
    const oldKey = randomBytes(32).toString('base64');
    const newKey = randomBytes(32).toString('base64');
    const keyFile = join(root, 'old.key');
    await writeFile(keyFile, `${oldKey}\n`, { mode: 0o600 });

    const first = await start(dataDir, ['--secrets-key-file', keyFile], {});
    if (!('url' in first)) throw new Error(first.output);
    const created = await fetch(`${first.url}/api/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        agent: { llm: { model: 'test-model', api_key: 'sk-cli-secret' }, tools: [] },
        workspace: { working_dir: join(root, 'workspace') },
      }),
    });
    expect(created.status).toBe(201);
    await stop(first);

    const wrong = await start(dataDir, [], { BOSUN_SECRETS_KEY: newKey });
    expect(wrong).toMatchObject({ code: 1 });
    const { output } = wrong as { output: string };
    expect(output).toMatch(/^bosun agent-server: bosun\.db holds conversations sealed with another secrets key/);
    expect(output).toMatch(/BOSUN_SECRETS_KEY_PREVIOUS/);
    expect(output).not.toMatch(/\n\s+at /);

    const rotated = await start(dataDir, [], { BOSUN_SECRETS_KEY: newKey, BOSUN_SECRETS_KEY_PREVIOUS: oldKey });
    expect('url' in rotated, JSON.stringify(rotated)).toBe(true);
    await stop(rotated);
    const again = await start(dataDir, [], { BOSUN_SECRETS_KEY: newKey });
    expect('url' in again, JSON.stringify(again)).toBe(true);
    await stop(again);
  });

  it('says what is wrong with a malformed key', async () => {
    const started = await start(join(root, 'other'), [], { BOSUN_SECRETS_KEY: 'hunter2' });
    expect(started).toMatchObject({ code: 1 });
    expect((started as { output: string }).output).toMatch(
      /^bosun agent-server: BOSUN_SECRETS_KEY must be 32 random bytes in base64/,
    );
  });
});
