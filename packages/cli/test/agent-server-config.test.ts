import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scratchDir } from './scratch.ts';
import { killServers, startAgentServer, stopServer } from './server-process.ts';

/** `bosun agent-server` reads a --config file under its flags and BOSUN_* variables, and refuses bad values. */

const scratch = scratchDir('bosun-cli-config-');
afterAll(() => killServers());

describe('bosun agent-server configuration', () => {
  it('takes settings from a YAML file, with BOSUN_* variables over it', async () => {
    const config = await scratch.write(
      'server.yaml',
      [
        'port: 0',
        `data_dir: ${join(scratch.dir, 'data')}`,
        'llm_model: file-model',
        'session_api_keys: [file-key]',
      ].join('\n'),
    );
    const started = await startAgentServer(['--config', config], { BOSUN_LLM_MODEL: 'env-model' });
    if (!('url' in started)) throw new Error(started.output);
    try {
      expect(started.output()).toContain('Default model: env-model');
      expect(started.output()).toContain(`(data in ${join(scratch.dir, 'data')})`);
      const search = `${started.url}/api/conversations/search`;
      expect((await fetch(search)).status).toBe(401);
      expect((await fetch(search, { headers: { 'X-Session-API-Key': 'file-key' } })).status).toBe(200);
    } finally {
      await stopServer(started);
    }
  });

  it('without a model, says how to start this server with one (not npm start, which starts the app)', async () => {
    const started = await startAgentServer(['--port', '0', '--data-dir', join(scratch.dir, 'no-model')], {});
    if (!('url' in started)) throw new Error(started.output);
    await stopServer(started);
    expect(started.output()).toContain('BOSUN_LLM_MODEL=gpt-4o BOSUN_LLM_API_KEY=sk-... npx bosun agent-server\n');
    expect(started.output()).not.toContain('npm start');
  });

  it('refuses a bad value before starting, naming the key and where it came from', async () => {
    const config = await scratch.write('bad.json', JSON.stringify({ workspace_root: '' }));
    const refused = await startAgentServer(['--config', config, '--data-dir', join(scratch.dir, 'never')], {
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
