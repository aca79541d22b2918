import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scratchDir } from './scratch.ts';
import { type Started, killServers, startAgentServer, stopServer } from './server-process.ts';

/** `bosun agent-server` takes its secrets key from a flag or the environment, and refuses a wrong one clearly. */

const scratch = scratchDir('bosun-cli-secrets-');
afterAll(() => killServers());

/** Starts the server on a free port over `dataDir`. */
function start(dataDir: string, args: string[], env: Record<string, string>): Promise<Started> {
  return startAgentServer(['--port', '0', '--data-dir', dataDir, ...args], env);
}

describe('bosun agent-server secrets key', () => {
  it('uses --secrets-key-file, refuses another key with a clear message, and rotates with BOSUN_SECRETS_KEY_PREVIOUS', async () => {
    const dataDir = join(scratch.dir, 'data');
    const oldKey = randomBytes(32).toString('base64');
    const newKey = randomBytes(32).toString('base64');
    const keyFile = join(scratch.dir, 'old.key');
    await writeFile(keyFile, `${oldKey}\n`, { mode: 0o600 });

    const first = await start(dataDir, ['--secrets-key-file', keyFile], {});
    if (!('url' in first)) throw new Error(first.output);
    const created = await fetch(`${first.url}/api/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        agent: { llm: { model: 'test-model', api_key: 'sk-cli-secret' }, tools: [] },
        workspace: { working_dir: join(scratch.dir, 'workspace') },
      }),
    });
    expect(created.status).toBe(201);
    await stopServer(first);

    const wrong = await start(dataDir, [], { BOSUN_SECRETS_KEY: newKey });
    expect(wrong).toMatchObject({ code: 1 });
    const { output } = wrong as { output: string };
    expect(output).toMatch(/^bosun agent-server: bosun\.db holds conversations sealed with another secrets key/);
    expect(output).toMatch(/BOSUN_SECRETS_KEY_PREVIOUS/);
    expect(output).not.toMatch(/\n\s+at /);

    const rotated = await start(dataDir, [], { BOSUN_SECRETS_KEY: newKey, BOSUN_SECRETS_KEY_PREVIOUS: oldKey });
    expect('url' in rotated, JSON.stringify(rotated)).toBe(true);
    await stopServer(rotated);
    const again = await start(dataDir, [], { BOSUN_SECRETS_KEY: newKey });
    expect('url' in again, JSON.stringify(again)).toBe(true);
    await stopServer(again);
  });

  it('says what is wrong with a malformed key', async () => {
    const started = await start(join(scratch.dir, 'other'), [], { BOSUN_SECRETS_KEY: 'hunter2' });
    expect(started).toMatchObject({ code: 1 });
    expect((started as { output: string }).output).toMatch(
      /^bosun agent-server: BOSUN_SECRETS_KEY must be 32 random bytes in base64/,
    );
  });
});
