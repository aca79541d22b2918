import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { type Server, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { AppServerConfig } from '@bosun/app-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flagOptions } from '../src/config/settings-help.ts';
import { loadSettings } from '../src/config/settings.ts';
import { runCli } from './io.ts';
import { killServers, startAppServer, stopServer } from './server-process.ts';

/** `bosun serve`: the app server's configuration from flags, BOSUN_* variables and a file; its start and stop. */

let root: string;
let busy: Server;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'bosun-serve-'));
  // The sandboxes' user must reach the data directories inside (<data_dir>/sandboxes).
  await chmod(root, 0o711);
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  killServers();
  await new Promise((resolve) => busy.close(resolve));
  await rm(root, { recursive: true, force: true });
});

describe('bosun serve --help', () => {
  it('lists every setting of the schema with its flag, variable, file key and default', async () => {
    const { code, stdout } = await runCli(['serve', '--help']);
    expect(code).toBe(0);
    for (const [key, schema] of Object.entries(AppServerConfig.properties)) {
      const line = stdout.split('\n').find((text) => text.includes(` ${key}:`));
      expect(line, key).toBeDefined();
      expect(line).toContain(`BOSUN_${key.toUpperCase()}`);
      const flag = `--${key.replaceAll('_', '-')}`;
      if ((schema as { secret?: boolean }).secret) expect(line).not.toContain(flag);
      else expect(line).toContain(schema.type === 'boolean' ? `--[no-]${key.replaceAll('_', '-')}` : flag);
    }
    expect(stdout).toContain('port: (default: 3000)');
    expect(stdout).toContain('data_dir: (default: .bosun)');
    expect(stdout).toContain('BOSUN_DATABASE_URL');
  });

  it('is listed among the commands', async () => {
    expect((await runCli(['--help'])).stdout).toMatch(/\n {2}serve\s+Start Bosun/);
  });
});

describe('bosun serve', () => {
  it('takes a flag over a variable over the file, starts, and stops on SIGTERM with status 0', async () => {
    const config = join(root, 'app.yaml');
    const dataDir = join(root, 'from-file');
    await writeFile(config, ['port: 0', `data_dir: ${dataDir}`, 'llm_model: file-model', 'log_level: warn'].join('\n'));
    const flags = ['--config', config, '--llm-model', 'flag-model', '--public-url', 'https://bosun.example.com/'];
    const started = await startAppServer(flags, {
      BOSUN_LLM_MODEL: 'env-model',
      BOSUN_LLM_API_KEY: 'sk-never-printed',
      BOSUN_JWT_SECRET: 'jwt-never-printed-0123456789',
    });
    if (!('url' in started)) throw new Error(started.output);
    expect(started.output()).toContain('Default model: flag-model');
    expect(started.output()).toContain('Open https://bosun.example.com/ in a browser');
    expect(started.output()).toContain(`(data in ${dataDir})`);
    expect(started.output()).toContain(`Database: SQLite ${join(dataDir, 'app.db')}`);
    expect((await fetch(`${started.url}/ready`)).status).toBe(200);
    expect(await stopServer(started)).toBe(0);
    expect(started.output()).toContain('Stopping (SIGTERM)');
    for (const secret of ['sk-never-printed', 'jwt-never-printed-0123456789'])
      expect(started.output()).not.toContain(secret);
  });

  it('refuses bad values before starting, naming each key and where it came from, never echoing secrets', async () => {
    const config = join(root, 'bad.json');
    await writeFile(config, JSON.stringify({ public_url: 'ftp://x', create_databases: 'yes' }));
    const refused = await startAppServer(['--config', config, '--data-dir', join(root, 'never')], {
      BOSUN_PORT: 'eighty',
      BOSUN_DATABASE_URL: 'mysql://bosun:db-password@db/bosun',
      BOSUN_SECRETS_KEY: 'too-short-secret',
      BOSUN_JWT_SECRET: 'short-jwt',
    });
    expect(refused).toEqual({
      code: 2,
      output: [
        "bosun serve: BOSUN_PORT: must be an integer from 0 to 65535, got 'eighty'",
        "bosun serve: BOSUN_DATABASE_URL: must be a postgres:// or postgresql:// URL, got 'mysql://bosun:***@db/bosun'",
        `bosun serve: ${config}: create_databases: must be true or false, got "yes"`,
        'bosun serve: BOSUN_SECRETS_KEY: must be base64 of 32 bytes',
        'bosun serve: BOSUN_JWT_SECRET: must be at least 16 characters',
        `bosun serve: ${config}: public_url: must be a http:// or https:// URL, got "ftp://x"`,
        '',
      ].join('\n'),
    });
  });

  it('refuses settings that do not go together, and unknown flags', async () => {
    const refused = await startAppServer(['--data-dir', join(root, 'never')], { BOSUN_S3_ENDPOINT: 'http://s3' });
    expect(refused).toEqual({ code: 2, output: 'bosun serve: s3_bucket: needed when s3_endpoint is set\n' });
    const unknown = await startAppServer(['--colour', 'red'], {});
    expect(unknown).toMatchObject({
      code: 2,
      output: expect.stringMatching(/^bosun serve: Unknown option '--colour'/),
    });
  });

  it('takes --no-create-databases (or BOSUN_CREATE_DATABASES=false) as false, the flag over the variable', async () => {
    const load = (args: string[], env: Record<string, string>) =>
      loadSettings(AppServerConfig, { flags: parseArgs({ args, options: flagOptions(AppServerConfig) }).values, env });
    expect((await load([], {})).values.create_databases).toBe(true);
    expect((await load(['--no-create-databases'], {})).values.create_databases).toBe(false);
    expect((await load([], { BOSUN_CREATE_DATABASES: 'false' })).values.create_databases).toBe(false);
    const both = await load(['--create-databases'], { BOSUN_CREATE_DATABASES: 'no' });
    expect(both.values.create_databases).toBe(true);
    expect(both.sources.create_databases).toBe('flag');
  });

  it('says so when the port is taken, with status 1', async () => {
    const { port } = busy.address() as { port: number };
    const refused = await startAppServer(['--port', String(port), '--data-dir', join(root, 'busy')], {});
    expect(refused).toEqual({
      code: 1,
      output: `bosun serve: cannot listen on 127.0.0.1:${port}: the address is in use\n`,
    });
  });
});
