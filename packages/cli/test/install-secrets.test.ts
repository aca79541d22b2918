import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { validateKubeObject } from '../../../deploy/helm/test/support/kube-schemas.ts';
import { KINDS } from '../../runtime/test/kubernetes/support/kinds.ts';
import { KubeStandIn } from '../../runtime/test/kubernetes/support/kube-stand-in.ts';
import { byName, closedPort, kubeconfigFile, parseSecrets, secretObject, valuesFile } from './install-support.ts';
import { runCli } from './io.ts';
import { scratchDir } from './scratch.ts';

const EXAMPLE = new URL('../../../deploy/helm/bosun/examples/production.yaml', import.meta.url).pathname;
const scratch = scratchDir('bosun-install-secrets-');
const DISABLED = { litellm: { enabled: false }, keycloak: { enabled: false }, github: { enabled: false } };
const SECRET = KINDS.find((kind) => kind.kind === 'Secret')!;
const BASE = ['jwt-secret', 'sandbox-api-key', 'default-api-key', 'postgres-password', 'redis', 'object-store'];

/** Each values variant: its -f flags and the Secrets it needs. */
async function variants(): Promise<[string, string[], string[]][]> {
  const disabled = await valuesFile(scratch.dir, 'disabled.yaml', DISABLED);
  return [
    ['default values', [], [...BASE, 'litellm-api-key', 'litellm-env-secrets']],
    [
      'the production example',
      ['-f', EXAMPLE],
      [...BASE, 'litellm-api-key', 'litellm-env-secrets', 'keycloak-admin', 'keycloak-realm', 'github-app'],
    ],
    ['the example with LiteLLM, Keycloak and GitHub disabled', ['-f', EXAMPLE, '-f', disabled], BASE],
  ];
}

describe('bosun install secrets prints the Secrets the values need', () => {
  it('as valid Kubernetes Secrets, for each values variant', async () => {
    for (const [variant, flags, names] of await variants()) {
      const run = await runCli(['install', 'secrets', ...flags]);
      expect(run.code, `${variant}: ${run.stderr}`).toBe(0);
      const secrets = parseSecrets(run.stdout);
      expect(secrets.map((secret) => secret.metadata.name).sort(), variant).toEqual([...names].sort());
      for (const secret of secrets) {
        await validateKubeObject(secret);
        expect(secret).toMatchObject({ apiVersion: 'v1', kind: 'Secret', type: 'Opaque' });
        expect(secret.metadata.namespace).toBe('bosun');
      }
    }
  });

  it('with random values, the runtime API keys equal, and placeholders only for what the operator knows', async () => {
    const first = byName(parseSecrets((await runCli(['install', 'secrets', '-f', EXAMPLE])).stdout));
    const second = byName(parseSecrets((await runCli(['install', 'secrets', '-f', EXAMPLE])).stdout));
    expect(first.get('jwt-secret')?.['jwt-secret']).toMatch(/^[0-9a-f]{64}$/);
    expect(first.get('jwt-secret')?.['jwt-secret']).not.toBe(second.get('jwt-secret')?.['jwt-secret']);
    expect(first.get('sandbox-api-key')?.['sandbox-api-key']).toMatch(/^[0-9a-f]{48}$/);
    expect(first.get('sandbox-api-key')?.['sandbox-api-key']).toBe(first.get('default-api-key')?.['default-api-key']);
    expect(first.get('litellm-api-key')?.['litellm-api-key']).toMatch(/^sk-[0-9a-f]{48}$/);
    expect(first.get('keycloak-admin')?.['admin-password']).toMatch(/^[0-9a-f]{48}$/);
    expect(first.get('keycloak-realm')).toMatchObject({
      'realm-name': 'bosun',
      'server-url': 'https://auth.bosun.example.com',
      'client-id': 'bosun',
    });
    // An external database and bucket: their credentials are the operator's, as are the provider and App keys.
    expect(first.get('postgres-password')).toEqual({
      password: expect.stringMatching(/^REPLACE-ME: the password of bosun on db.internal.example.com$/),
    });
    expect(first.get('litellm-env-secrets')?.ANTHROPIC_API_KEY).toMatch(/^REPLACE-ME: /);
    expect(first.get('object-store')?.['secret-access-key']).toMatch(/^REPLACE-ME: /);
    expect(first.get('github-app')?.['app-id']).toMatch(/^REPLACE-ME: /);
    expect(first.get('github-app')?.['private-key']).toMatch(/^REPLACE-ME: .*--github-app-pem/);
    expect(first.get('github-app')?.['webhook-secret']).toMatch(/^[0-9a-f]{48}$/);
    const defaults = byName(parseSecrets((await runCli(['install', 'secrets'])).stdout));
    expect(defaults.get('postgres-password')).toEqual({
      username: 'bosun',
      password: expect.stringMatching(/^[0-9a-f]{48}$/),
      'postgres-password': expect.stringMatching(/^[0-9a-f]{48}$/),
    });
    expect(defaults.get('object-store')?.['access-key-id']).toMatch(/^bosun[0-9a-f]{20}$/);
  });

  it('says which values are still to replace, on stderr', async () => {
    const run = await runCli(['install', 'secrets', '-f', EXAMPLE]);
    expect(run.stderr).toContain(
      'replace the REPLACE-ME values of postgres-password (password), litellm-env-secrets (ANTHROPIC_API_KEY)',
    );
    expect(run.stdout).toContain('# Replace ANTHROPIC_API_KEY (marked REPLACE-ME) before installing.');
  });

  it('names the Secrets and the namespace as given', async () => {
    const names = await valuesFile(scratch.dir, 'names.yaml', { secrets: { jwt: 'my-jwt', redis: 'my-redis' } });
    const secrets = parseSecrets((await runCli(['install', 'secrets', '-n', 'team-a', '-f', names])).stdout);
    expect(secrets.map((secret) => secret.metadata.name)).toEqual(expect.arrayContaining(['my-jwt', 'my-redis']));
    expect(new Set(secrets.map((secret) => secret.metadata.namespace))).toEqual(new Set(['team-a']));
  });

  it("puts the GitHub App's key from --github-app-pem, and refuses a file that is not one", async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const file = await scratch.write('app.pem', pem);
    const run = await runCli(['install', 'secrets', '-f', EXAMPLE, '--github-app-pem', file]);
    expect(byName(parseSecrets(run.stdout)).get('github-app')?.['private-key']).toBe(pem);
    const notPem = await scratch.write('not.pem', 'hello');
    const refused = await runCli(['install', 'secrets', '-f', EXAMPLE, '--github-app-pem', notPem]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`--github-app-pem ${notPem}: not a PEM private key`);
    expect(refused.stdout).toBe('');
  });

  it('refuses bad input with exit status 2, naming it', async () => {
    const bad = await valuesFile(scratch.dir, 'bad.yaml', { litellm: { enabled: 'yes' } });
    expect(await runCli(['install', 'secrets', '-f', bad])).toMatchObject({ code: 2, stdout: '' });
    expect((await runCli(['install', 'secrets', '-f', bad])).stderr).toContain(
      'values: litellm.enabled must be true or false, not "yes"',
    );
    expect((await runCli(['install', 'secrets', '-f', '/nonexistent.yaml'])).stderr).toContain(
      '-f /nonexistent.yaml: cannot read /nonexistent.yaml: ENOENT',
    );
    expect((await runCli(['install', 'secrets', '-n', 'Bad_NS'])).stderr).toContain(
      '--namespace Bad_NS: not a namespace name',
    );
    expect((await runCli(['install', 'keys'])).stderr).toContain("unknown subcommand 'keys'");
    expect((await runCli(['install', 'secrets', '--kubeconfig', 'x'])).stderr).toContain('--kubeconfig is for --apply');
  });
});

describe('bosun install secrets --apply', () => {
  let standIn: KubeStandIn;
  let kubeconfig: string;
  beforeAll(async () => {
    standIn = await KubeStandIn.start(['bosun'], []);
    kubeconfig = await kubeconfigFile(standIn, scratch.dir);
  });
  afterAll(() => standIn.close());
  beforeEach(() => {
    for (const secret of standIn.store.list(SECRET, 'bosun')) standIn.remove('Secret', 'bosun', secret.metadata.name);
    standIn.requests.length = 0;
  });
  const stored = (name: string) => {
    const secret = standIn.store.get(SECRET, 'bosun', name) as { data?: Record<string, string> } | undefined;
    return Object.fromEntries(
      Object.entries(secret?.data ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64').toString()]),
    );
  };
  const creates = () => standIn.requests.filter((request) => request.method === 'POST').length;

  it('creates every Secret, and a second apply creates nothing', async () => {
    const run = await runCli(['install', 'secrets', '-f', EXAMPLE, '--apply', '--kubeconfig', kubeconfig]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('created  jwt-secret\n');
    expect(run.stdout).toContain(
      'kubectl -n bosun patch secret litellm-env-secrets -p \'{"stringData":{"ANTHROPIC_API_KEY":"..."}}\'',
    );
    expect(run.stdout).toContain('11 created, 0 already existed');
    expect(creates()).toBe(11);
    // Never printed: the values went to the cluster only.
    expect(run.stdout).not.toContain(stored('jwt-secret')['jwt-secret']);
    expect(stored('jwt-secret')['jwt-secret']).toMatch(/^[0-9a-f]{64}$/);
    expect(stored('sandbox-api-key')['sandbox-api-key']).toBe(stored('default-api-key')['default-api-key']);

    standIn.requests.length = 0;
    const again = await runCli(['install', 'secrets', '-f', EXAMPLE, '--apply', '--kubeconfig', kubeconfig]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('exists   jwt-secret (left unchanged)');
    expect(again.stdout).toContain('0 created, 11 already existed');
    expect(
      standIn.requests.filter((request) => request.method === 'POST' && request.rule?.resource === 'secrets'),
    ).toHaveLength(11);
    expect(standIn.store.list(SECRET, 'bosun')).toHaveLength(11);
  });

  it('leaves an existing Secret as it is and creates the others', async () => {
    standIn.put(secretObject('bosun', 'jwt-secret', { 'jwt-secret': 'the-operators-own' }));
    const run = await runCli(['install', 'secrets', '--apply', '--kubeconfig', kubeconfig]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('exists   jwt-secret (left unchanged)');
    expect(run.stdout).toContain('7 created, 1 already existed');
    expect(stored('jwt-secret')).toEqual({ 'jwt-secret': 'the-operators-own' });
  });

  it('fails with exit status 1 when the namespace does not exist, creating nothing', async () => {
    const run = await runCli(['install', 'secrets', '-n', 'elsewhere', '--apply', '--kubeconfig', kubeconfig]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'namespace elsewhere does not exist: create it first (kubectl create namespace elsewhere)',
    );
    expect(creates()).toBe(0);
  });

  it('fails with exit status 1 naming the API that does not answer', async () => {
    const port = await closedPort();
    const file = await valuesFile(scratch.dir, 'unreachable-kubeconfig', {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'gone', cluster: { server: `http://127.0.0.1:${port}` } }],
      users: [{ name: 'u', user: { token: 't' } }],
      contexts: [{ name: 'gone', context: { cluster: 'gone', user: 'u' } }],
      'current-context': 'gone',
    });
    const run = await runCli(['install', 'secrets', '--apply', '--kubeconfig', file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`the Kubernetes API at http://127.0.0.1:${port} did not answer`);
  });
});
