import { join } from 'node:path';
import { AppServerConfig } from '@bosun/app-server';
import { RuntimeApiConfig } from '@bosun/runtime';
import type { TObject } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { SettingsError, loadSettings, settingsOf } from '../src/config/settings.ts';
import { runCli } from './io.ts';
import { scratchDir } from './scratch.ts';

/** Every secret of `bosun serve` and `bosun runtime-api` read from a file (how Kubernetes mounts Secrets). */

const scratch = scratchDir('bosun-secret-files-');
const KEY = Buffer.alloc(32, 7).toString('base64');

/** A valid value of each secret setting, as its variable would carry it. */
const SAMPLES: Record<string, string> = {
  s3_secret_access_key: 'minio-secret-access-key',
  secrets_key: KEY,
  secrets_key_previous: `${KEY},${Buffer.alloc(32, 9).toString('base64')}`,
  jwt_secret: 'jwt-secret-of-this-install-0123',
  jwt_secret_previous: 'jwt-secret-of-the-last-install',
  llm_api_key: 'sk-llm-key from a file',
  // A license file as issued: a compact JWS (the settings load it as it is; the app verifies it at start).
  license: 'eyJhbGciOiJFZERTQSJ9.eyJpc3N1ZXIiOiJCb3N1biJ9.c2lnbmF0dXJl',
  oidc_client_secret: 'oidc-client-secret',
  git_github_app_client_secret: 'github-app-client-secret',
  // The app's private key as GitHub issues it: PEM text over several lines (its problems are the server's, at start).
  git_github_app_private_key: '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----',
  git_github_app_webhook_secret: 'github-app-webhook-secret',
  git_gitlab_app_client_secret: 'gitlab-app-client-secret',
  git_bitbucket_app_client_secret: 'bitbucket-consumer-secret',
  runtime_api_key: 'runtime-api-key-0123456789',
  runtime_api_key_previous: 'runtime-api-key-old-0123456789',
  warm_pool_environment: 'LLM_API_KEY=sk-pool,LLM_MODEL=gpt',
};

const SCHEMAS: [string, TObject][] = [
  ['serve', AppServerConfig],
  ['runtime-api', RuntimeApiConfig],
];

async function problemsOf(load: Promise<unknown>): Promise<string[]> {
  const error = await load.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof SettingsError)) throw new Error(`expected a SettingsError, got ${String(error)}`);
  return error.problems;
}

describe.each(SCHEMAS)('the secrets of bosun %s', (_command, schema) => {
  const secrets = settingsOf(schema).filter((setting) => setting.secret);

  it('each come from BOSUN_<KEY>_FILE as from BOSUN_<KEY>, one trailing newline dropped', async () => {
    for (const setting of secrets) {
      // The runtime's own runtime_api_key_file and secrets_key_file are read by the service (tested there).
      if (!setting.file) {
        expect(Object.keys(schema.properties)).toContain(`${setting.key}_file`);
        continue;
      }
      expect(SAMPLES, `a sample of ${setting.key}`).toHaveProperty(setting.key);
      expect(setting.file.env).toBe(`${setting.env}_FILE`);
      const path = await scratch.write(`${setting.key}.txt`, `${SAMPLES[setting.key]}\n`);
      const fromFile = await loadSettings(schema, { flags: {}, env: { [setting.file.env]: path } });
      const fromEnv = await loadSettings(schema, { flags: {}, env: { [setting.env]: SAMPLES[setting.key] } });
      expect(fromFile.values[setting.key], setting.key).toEqual(fromEnv.values[setting.key]);
      expect(fromFile.sources[setting.key]).toBe('env');
    }
  });

  it('each come from <key>_file in the configuration file', async () => {
    for (const setting of secrets.filter((candidate) => candidate.file)) {
      const path = await scratch.write(`${setting.key}-cfg.txt`, SAMPLES[setting.key] as string);
      const config = await scratch.write(`${setting.key}.yaml`, `${setting.file?.key}: ${path}\n`);
      const { values, sources } = await loadSettings(schema, { flags: { config }, env: {} });
      const fromEnv = await loadSettings(schema, { flags: {}, env: { [setting.env]: SAMPLES[setting.key] } });
      expect(values[setting.key], setting.key).toEqual(fromEnv.values[setting.key]);
      expect(sources[setting.key]).toBe('file');
    }
  });
});

describe('a secret from a file', () => {
  const load = (env: Record<string, string>, flags: Record<string, string> = {}) =>
    loadSettings(AppServerConfig, { flags, env });

  it('keeps what the file holds but the last newline', async () => {
    const path = await scratch.write('two-lines.txt', '  sk-with spaces  \n\n');
    expect((await load({ BOSUN_LLM_API_KEY_FILE: path })).values.llm_api_key).toBe('  sk-with spaces  \n');
  });

  it('given with the value too is refused, naming both places', async () => {
    const path = await scratch.write('jwt.txt', SAMPLES.jwt_secret as string);
    expect(
      await problemsOf(load({ BOSUN_JWT_SECRET: 'jwt-secret-in-a-variable', BOSUN_JWT_SECRET_FILE: path })),
    ).toEqual(['BOSUN_JWT_SECRET, BOSUN_JWT_SECRET_FILE: give the value or its file, not both']);
    const config = await scratch.write('both.yaml', 'jwt_secret: jwt-secret-in-the-file-0123\n');
    expect(await problemsOf(load({ BOSUN_JWT_SECRET_FILE: path }, { config }))).toEqual([
      `${config}: jwt_secret, BOSUN_JWT_SECRET_FILE: give the value or its file, not both`,
    ]);
  });

  it('that cannot be read is refused naming the key and the path; a bad one never shows what it holds', async () => {
    const missing = join(scratch.dir, 'missing.txt');
    const short = await scratch.write('short.txt', 'too-short-jwt\n');
    const empty = await scratch.write('empty.txt', '\n');
    const config = await scratch.write('not-a-path.yaml', 'oidc_client_secret_file: 42\n');
    expect(
      await problemsOf(
        load(
          { BOSUN_SECRETS_KEY_FILE: missing, BOSUN_JWT_SECRET_FILE: short, BOSUN_LLM_API_KEY_FILE: empty },
          { config },
        ),
      ),
    ).toEqual([
      `secrets_key: cannot read ${missing}, named by BOSUN_SECRETS_KEY_FILE (ENOENT)`,
      `BOSUN_JWT_SECRET_FILE (${short}): must be at least 16 characters`,
      `llm_api_key: ${empty}, named by BOSUN_LLM_API_KEY_FILE, is empty`,
      `${config}: oidc_client_secret_file: must be the path of a file holding oidc_client_secret`,
    ]);
  });

  it('stops `bosun serve` before it starts (exit 2), the content never printed', async () => {
    const path = await scratch.write('bad-key.txt', 'sk-not-base64-never-printed\n');
    process.env.BOSUN_SECRETS_KEY_FILE = path;
    const refused = await runCli(['serve', '--data-dir', join(scratch.dir, 'serve')]).finally(() => {
      delete process.env.BOSUN_SECRETS_KEY_FILE;
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`bosun serve: BOSUN_SECRETS_KEY_FILE (${path}): must be base64 of 32 bytes\n`);
  });

  it('is refused by `bosun runtime-api` when its key is given both ways', async () => {
    const path = await scratch.write('runtime-key.txt', `${SAMPLES.runtime_api_key}\n`);
    process.env.BOSUN_RUNTIME_API_KEY_FILE = path;
    process.env.BOSUN_RUNTIME_API_KEY = 'runtime-api-key-in-a-variable';
    const refused = await runCli(['runtime-api', '--data-dir', join(scratch.dir, 'runtime')]).finally(() => {
      delete process.env.BOSUN_RUNTIME_API_KEY_FILE;
      delete process.env.BOSUN_RUNTIME_API_KEY;
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('runtime_api_key, runtime_api_key_file: give the key or the file');
    expect(refused.stderr).not.toContain('runtime-api-key-in-a-variable');
  });
});
