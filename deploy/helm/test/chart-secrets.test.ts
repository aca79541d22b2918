import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chartValues } from '../../../packages/cli/src/install/chart.ts';
import { installValuesOf } from '../../../packages/cli/src/install/install-values.ts';
import { makeSecrets } from '../../../packages/cli/src/install/secret-manifests.ts';
import { requiredSecrets } from '../../../packages/cli/src/install/secret-table.ts';
import { ClusterStandIn, type SecretData } from './support/cluster-stand-in.ts';
import { CHART, EXAMPLE, helm } from './support/helm.ts';

// The production example's Secrets from the table `bosun install secrets` and `bosun preflight` read (the CLI's
// secret-table.ts): every secret of the chart's README but the bundled PostgreSQL's superuser key.
const SECRETS: Record<string, SecretData> = Object.fromEntries(
  makeSecrets(requiredSecrets(installValuesOf(chartValues(CHART, [EXAMPLE]))), 'bosun', undefined).map(
    ({ manifest }) => [manifest.metadata.name, manifest.stringData],
  ),
);

let cluster: ClusterStandIn;
let dir: string;
let kubeconfig: string;
beforeAll(async () => {
  cluster = await ClusterStandIn.start('bosun');
  dir = mkdtempSync(join(tmpdir(), 'bosun-chart-'));
  kubeconfig = cluster.kubeconfig(dir);
});
afterAll(async () => {
  await cluster.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  cluster.secrets.clear();
  for (const [name, data] of Object.entries(SECRETS)) cluster.secrets.set(name, { ...data });
});

/**
 * `helm template --dry-run=server` of the production example against the stand-in: lookups answer. The stand-in
 * serves no OpenAPI document: the objects are checked against the Kubernetes schemas in chart-render.test.ts.
 */
const install = (...args: string[]) =>
  helm(
    ['template', '--namespace', 'bosun', '--dry-run=server', '--disable-openapi-validation', '-f', EXAMPLE, ...args],
    {
      KUBECONFIG: kubeconfig,
    },
  );

describe('at install, every secret and key the values need is looked up', () => {
  it('renders when they all exist', async () => {
    const run = await install();
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('fails naming a missing secret and the keys it must hold', async () => {
    cluster.secrets.delete('github-app');
    const run = await install();
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(
      'secret github-app is missing in namespace bosun (keys: app-id, app-slug, client-id, client-secret, private-key, webhook-secret)',
    );
  });

  it('fails naming a missing key, including a provider key a model names', async () => {
    cluster.secrets.set('litellm-env-secrets', { OPENAI_API_KEY: 'sk' });
    expect((await install()).stderr).toContain(
      'secret litellm-env-secrets in namespace bosun has no key ANTHROPIC_API_KEY',
    );
    cluster.secrets.set('litellm-env-secrets', SECRETS['litellm-env-secrets'] as SecretData);
    cluster.secrets.set('keycloak-realm', {
      ...SECRETS['keycloak-realm'],
      'client-secret': undefined,
    } as unknown as SecretData);
    const realm = Object.fromEntries(
      Object.entries(SECRETS['keycloak-realm'] ?? {}).filter(([key]) => key !== 'client-secret'),
    );
    cluster.secrets.set('keycloak-realm', realm);
    expect((await install()).stderr).toContain('secret keycloak-realm in namespace bosun has no key client-secret');
  });

  it("fails when the app's runtime API key and the runtime API's differ", async () => {
    cluster.secrets.set('default-api-key', { 'default-api-key': 'x'.repeat(32) });
    expect((await install()).stderr).toContain('secrets sandbox-api-key and default-api-key differ');
  });

  it("fails when the realm's server-url is not where Keycloak is served", async () => {
    cluster.secrets.set('keycloak-realm', { ...SECRETS['keycloak-realm'], 'server-url': 'http://keycloak:8080' });
    expect((await install()).stderr).toContain(
      'secret keycloak-realm key server-url is "http://keycloak:8080" but Keycloak is served at https://auth.bosun.example.com',
    );
  });

  it('asks only for the secrets of enabled components', async () => {
    for (const name of ['sandbox-api-key', 'default-api-key', 'keycloak-admin', 'keycloak-realm', 'github-app']) {
      cluster.secrets.delete(name);
    }
    const run = await install(
      ...['runtime-api.enabled=false', 'keycloak.enabled=false', 'github.enabled=false'].flatMap((pair) => [
        '--set',
        pair,
      ]),
    );
    expect(run.stderr).toBe('');
  });

  it('looks up the license Secret license.secretName names, and its key', async () => {
    const named = ['--set', 'license.secretName=acme-license', '--set', 'license.key=license.jws'];
    expect((await install(...named)).stderr).toContain(
      'secret acme-license (license.secretName) is missing in namespace bosun: create it from the license file',
    );
    cluster.secrets.set('acme-license', { license: 'a.b.c' });
    expect((await install(...named)).stderr).toContain(
      'secret acme-license (license.secretName) in namespace bosun has no key license.jws (license.key)',
    );
    cluster.secrets.set('acme-license', { 'license.jws': 'a.b.c' });
    const run = await install(...named);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('checks nothing with secrets.check false', async () => {
    cluster.secrets.clear();
    expect((await install('--set', 'secrets.check=false')).status).toBe(0);
  });
});
