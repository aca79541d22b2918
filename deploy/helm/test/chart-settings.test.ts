import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppServerConfig } from '../../../packages/app-server/src/config.ts';
import { appServerConfigProblems } from '../../../packages/app-server/src/start/config-problems.ts';
import { readConfig } from '../../../packages/cli/src/config/read-config.ts';
import { RuntimeApiConfig, kubernetesConfigOf } from '../../../packages/runtime/src/index.ts';
import { EXAMPLE, type KubeObject, find, render } from './support/helm.ts';
import { type Container, podSpec } from './support/objects.ts';

// The settings the chart gives each Bosun container, read by Bosun's own settings loader (the one `bosun serve`
// and `bosun runtime-api` run at start): a name it does not know, a bad value or a missing file is caught here.
let defaults: KubeObject[];
let production: KubeObject[];
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bosun-chart-settings-'));
  [defaults, production] = await Promise.all([render(), render(['-f', EXAMPLE])]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Sample values of the secret keys whose settings take one shape only (the others: `sample-<key>-...`). */
const SAMPLE_KEYS: Record<string, string> = { 'server-url': 'https://auth.bosun.example.com', 'app-id': '123456' };
/** The GitHub App's private key, as its mounted file holds it. */
const PRIVATE_KEY = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
}).privateKey;

/** The container's environment as Kubernetes gives it: secret keys as sample values, $(VAR) expanded, files moved. */
function environmentOf(container: Container): Record<string, string> {
  const env: Record<string, string> = {};
  for (const variable of container.env ?? []) {
    if (variable.valueFrom?.secretKeyRef) {
      const { key } = variable.valueFrom.secretKeyRef;
      env[variable.name] = SAMPLE_KEYS[key] ?? `sample-${key}-0123456789abcdef`;
      continue;
    }
    let value = (variable.value ?? '').replace(/\$\(([A-Z_]+)\)/g, (_whole, name: string) => env[name] ?? '');
    if (variable.name.endsWith('_FILE')) {
      const file = join(dir, value.replaceAll('/', '_'));
      writeFileSync(file, value.endsWith('/github-private-key') ? PRIVATE_KEY : 'sample-secret-0123456789abcdef\n');
      value = file;
    }
    env[variable.name] = value;
  }
  return env;
}

async function load(container: Container, schema: typeof AppServerConfig | typeof RuntimeApiConfig) {
  const stderr = new PassThrough();
  let said = '';
  stderr.on('data', (chunk: Buffer) => {
    said += chunk.toString();
  });
  const io = { stdout: new PassThrough(), stderr, stdin: new PassThrough() };
  const saved = process.env;
  process.env = environmentOf(container);
  try {
    const [command, ...args] = container.args ?? [];
    const loaded = await readConfig(schema, command ?? '', '', args, io);
    if (typeof loaded === 'number') throw new Error(said);
    return loaded.values;
  } finally {
    process.env = saved;
  }
}

const containerOf = (objects: KubeObject[], deployment: string, name: string) =>
  [
    ...(podSpec(find(objects, 'Deployment', deployment))?.initContainers ?? []),
    ...(podSpec(find(objects, 'Deployment', deployment))?.containers ?? []),
  ].find((container) => container.name === name) as Container;

describe("Bosun's settings loader accepts what the chart renders", () => {
  it('for the app server and its migration, with the default values and the production example', async () => {
    for (const objects of [defaults, production]) {
      for (const name of ['migrate', 'app']) {
        const config = await load(containerOf(objects, 'bosun', name), AppServerConfig);
        expect(appServerConfigProblems(config as AppServerConfig)).toEqual([]);
        expect(config).toMatchObject({ jwt_secret: 'sample-secret-0123456789abcdef', data_dir: '/var/lib/bosun' });
      }
    }
    const app = (await load(containerOf(production, 'bosun', 'app'), AppServerConfig)) as AppServerConfig;
    expect(app).toMatchObject({
      host: '0.0.0.0',
      port: 3000,
      migrate_on_start: false,
      public_url: 'https://bosun.example.com',
      database_url:
        'postgres://bosun:sample-password-0123456789abcdef@db.internal.example.com:5432/bosun?sslmode=verify-full',
      redis_url: 'redis://:sample-redis-password-0123456789abcdef@bosun-redis:6379',
      oidc_issuer_url: 'https://auth.bosun.example.com/realms/sample-realm-name-0123456789abcdef',
      oidc_providers: ['github'],
      llm_model: 'claude-sonnet',
      sandbox_network: 'open',
      // The GitHub App's own keys, from its secret: installation tokens and the webhook work in the cluster too.
      git_github_app_id: '123456',
      git_github_app_slug: 'sample-app-slug-0123456789abcdef',
      git_github_app_private_key: PRIVATE_KEY.trim(),
      git_github_app_webhook_secret: 'sample-secret-0123456789abcdef',
    });
  });

  it('for the license file the chart mounts (BOSUN_LICENSE_FILE): its content is the license setting', async () => {
    const objects = await render(['--set', 'license.secretName=acme-license']);
    for (const name of ['migrate', 'app']) {
      const config = (await load(containerOf(objects, 'bosun', name), AppServerConfig)) as AppServerConfig;
      expect(config.license).toBe('sample-secret-0123456789abcdef');
    }
    const config = (await load(containerOf(defaults, 'bosun', 'app'), AppServerConfig)) as AppServerConfig;
    expect(config.license).toBeUndefined();
  });

  it('for the runtime API, and its Kubernetes settings by the Kubernetes backend', async () => {
    for (const objects of [defaults, production]) {
      const container = containerOf(objects, 'bosun-runtime-api', 'runtime-api');
      const config = (await load(container, RuntimeApiConfig)) as RuntimeApiConfig;
      expect(config).toMatchObject({ runtime_backend: 'kubernetes', host: '0.0.0.0', port: 5000 });
      // A setting of its own, read by the service at start (its first line).
      expect(config.runtime_api_key_file).toMatch(/default-api-key$/);
      // The Kubernetes backend opens no database: the runtime API is given none.
      expect(config.database_url).toBeUndefined();
      const kubernetes = config.kubernetes as Parameters<typeof kubernetesConfigOf>[0];
      expect(kubernetesConfigOf(kubernetes).namespace).toBe('bosun-sandboxes');
    }
  });
});
