import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** `bosun agent-server` reads a --config file under its flags and BOSUN_* variables, and refuses bad values. */

const CLI = fileURLToPath(new URL('../bin/bosun.js', import.meta.url));
const children: ChildProcess[] = [];
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'bosun-cli-config-'));
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await rm(root, { recursive: true, force: true });
});

type Started = { url: string; output: () => string; child: ChildProcess } | { code: number | null; output: string };

/** Starts the server; resolves once it listens (with its URL), or with its exit code and output if it exits. */
function start(args: string[], env: Record<string, string>): Promise<Started> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('BOSUN_')));
  const child = spawn(process.execPath, [CLI, 'agent-server', ...args], {
    env: { ...clean, BOSUN_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  return new Promise((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url && /Default model|No default LLM/.test(output)) resolve({ url, output: () => output, child });
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    // 'close', not 'exit': by then everything the process wrote has been read.
    child.once('close', (code) => resolve({ code, output }));
  });
}

describe('bosun agent-server configuration', () => {
  it('takes settings from a YAML file, with BOSUN_* variables over it', async () => {
    const config = join(root, 'server.yaml');
    await writeFile(
      config,
      ['port: 0', `data_dir: ${join(root, 'data')}`, 'llm_model: file-model', 'session_api_keys: [file-key]'].join(
        '\n',
      ),
    );
    const started = await start(['--config', config], { BOSUN_LLM_MODEL: 'env-model' });
    if (!('url' in started)) throw new Error(started.output);
    try {
      expect(started.output()).toContain('Default model: env-model');
      expect(started.output()).toContain(`(data in ${join(root, 'data')})`);
      const search = `${started.url}/api/conversations/search`;
      expect((await fetch(search)).status).toBe(401);
      expect((await fetch(search, { headers: { 'X-Session-API-Key': 'file-key' } })).status).toBe(200);
    } finally {
      const exited = new Promise((resolve) => started.child.once('exit', resolve));
      started.child.kill('SIGTERM');
      await exited;
    }
  });

  it('refuses a bad value before starting, naming the key and where it came from', async () => {
    const config = join(root, 'bad.json');
    await writeFile(config, JSON.stringify({ workspace_root: '' }));
    const refused = await start(['--config', config, '--data-dir', join(root, 'never')], { BOSUN_PORT: 'eighty' });
    expect(refused).toEqual({
      code: 2,
      output: [
        "bosun agent-server: BOSUN_PORT: must be an integer from 0 to 65535, got 'eighty'",
        `bosun agent-server: ${config}: workspace_root: must be a non-empty string, got ""`,
        '',
      ].join('\n'),
    });
  });
});
