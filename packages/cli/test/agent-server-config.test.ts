import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killServers, startAgentServer, stopServer } from './server-process.ts';

/** `bosun agent-server` reads a --config file under its flags and BOSUN_* variables, and refuses bad values. */

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'bosun-cli-config-'));
});

afterAll(async () => {
  killServers();
  await rm(root, { recursive: true, force: true });
});

describe('bosun agent-server configuration', () => {
  it('takes settings from a YAML file, with BOSUN_* variables over it', async () => {
    const config = join(root, 'server.yaml');
    await writeFile(
      config,
      ['port: 0', `data_dir: ${join(root, 'data')}`, 'llm_model: file-model', 'session_api_keys: [file-key]'].join(
        '\n',
      ),
    );
    const started = await startAgentServer(['--config', config], { BOSUN_LLM_MODEL: 'env-model' });
    if (!('url' in started)) throw new Error(started.output);
    try {
      expect(started.output()).toContain('Default model: env-model');
      expect(started.output()).toContain(`(data in ${join(root, 'data')})`);
      const search = `${started.url}/api/conversations/search`;
      expect((await fetch(search)).status).toBe(401);
      expect((await fetch(search, { headers: { 'X-Session-API-Key': 'file-key' } })).status).toBe(200);
    } finally {
      await stopServer(started);
    }
  });

  it('refuses a bad value before starting, naming the key and where it came from', async () => {
    const config = join(root, 'bad.json');
    await writeFile(config, JSON.stringify({ workspace_root: '' }));
    const refused = await startAgentServer(['--config', config, '--data-dir', join(root, 'never')], {
      BOSUN_PORT: 'eighty',
    });
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
