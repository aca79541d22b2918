import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KubeStandIn } from '../../runtime/test/kubernetes/support/kube-stand-in.ts';
import { chartDir, chartValues } from '../src/install/chart.ts';
import { installValuesOf } from '../src/install/install-values.ts';
import { runPreflight } from '../src/install/preflight/run-preflight.ts';
import { kubeconfigFile, secretObject, valuesFile } from './install-support.ts';
import { runCli } from './io.ts';
import {
  EXAMPLE,
  ingressClass,
  node,
  preflight,
  result,
  storageClass,
  usePassingCluster,
} from './preflight-support.ts';
import { scratchDir } from './scratch.ts';

const scratch = scratchDir('bosun-preflight-secrets-');

describe('the secrets check', () => {
  const cluster = usePassingCluster(scratch);
  const run = () => preflight([EXAMPLE, cluster.local], cluster.kubeconfig);
  const replace = (name: string, data: Record<string, string>) => {
    cluster.standIn.remove('Secret', 'bosun', name);
    cluster.standIn.put(secretObject('bosun', name, data));
  };

  it('passes each Secret of the table with its keys', async () => {
    expect(result(await run(), 'secret keycloak-realm')).toMatchObject({
      outcome: 'pass',
      detail: 'has realm-name, server-url, client-id, client-secret, smtp-password',
    });
  });

  it('fails a missing Secret, telling how to make it', async () => {
    cluster.standIn.remove('Secret', 'bosun', 'github-app');
    expect(result(await run(), 'secret github-app')).toMatchObject({
      outcome: 'fail',
      detail:
        'missing in namespace bosun (keys: app-id, app-slug, client-id, client-secret, private-key, webhook-secret; values key secrets.githubApp)',
      fix: "bosun install secrets -n bosun [-f VALUES.yaml]... --apply, or create it as the chart's README shows",
    });
  });

  it('fails a missing key, including the provider key a model names', async () => {
    replace('litellm-env-secrets', { OPENAI_API_KEY: 'sk-x' });
    expect(result(await run(), 'secret litellm-env-secrets')).toMatchObject({
      outcome: 'fail',
      detail: 'has no key ANTHROPIC_API_KEY',
    });
  });

  it('fails a placeholder left by bosun install secrets', async () => {
    replace('litellm-env-secrets', { ANTHROPIC_API_KEY: 'REPLACE-ME: the provider API key ANTHROPIC_API_KEY' });
    expect(result(await run(), 'secret litellm-env-secrets')).toMatchObject({
      outcome: 'fail',
      detail: 'ANTHROPIC_API_KEY still holds the placeholder of bosun install secrets',
      fix: `kubectl -n bosun patch secret litellm-env-secrets -p '{"stringData":{"ANTHROPIC_API_KEY":"..."}}'`,
    });
  });

  it("fails runtime API keys that differ, and a realm server-url that is not Keycloak's", async () => {
    replace('default-api-key', { 'default-api-key': 'another' });
    replace('keycloak-realm', {
      'realm-name': 'bosun',
      'server-url': 'http://keycloak:8080',
      'client-id': 'bosun',
      'client-secret': 's',
      'smtp-password': '',
    });
    const results = await run();
    expect(result(results, 'secrets sandbox-api-key and default-api-key').outcome).toBe('fail');
    expect(result(results, 'secret keycloak-realm').outcome).toBe('pass');
    expect(results.find((r) => r.check === 'secret keycloak-realm' && r.outcome === 'fail')).toMatchObject({
      fix: 'set its server-url to https://auth.bosun.example.com',
    });
  });

  it('fails a release namespace that does not exist, once', async () => {
    const values = installValuesOf(chartValues(chartDir(undefined), [EXAMPLE, cluster.local]));
    const results = await runPreflight(
      { values, kubeVersion: undefined, namespace: 'nowhere', kubeconfig: cluster.kubeconfig },
      { resolve: async () => ['192.0.2.1'] },
    );
    expect(results.filter((r) => r.check.startsWith('secret'))).toEqual([]);
    expect(result(results, 'namespace nowhere')).toMatchObject({ outcome: 'fail', detail: 'does not exist' });
  });
});

describe('bosun preflight (the command)', () => {
  let standIn: KubeStandIn;
  let kubeconfig: string;
  let values: string;
  beforeEach(async () => {
    standIn = await KubeStandIn.start(['bosun'], []);
    standIn.put(storageClass('standard', true));
    standIn.put(ingressClass('nginx', true));
    standIn.put(node('node-a', '8', '32Gi'));
    kubeconfig = await kubeconfigFile(standIn, scratch.dir);
    // Names the system's resolver knows: localhost; no runtime API, so no sandbox host.
    values = await valuesFile(scratch.dir, 'localhost.yaml', {
      ingress: { host: 'localhost' },
      'runtime-api': { enabled: false },
    });
    const applied = await runCli(['install', 'secrets', '-f', values, '--apply', '--kubeconfig', kubeconfig]);
    expect(applied.code).toBe(0);
  });
  afterEach(() => standIn.close());
  const preflightCli = () => runCli(['preflight', '--kubeconfig', kubeconfig, '-f', values]);

  it('exits 0 when every check passes, printing each', async () => {
    const run = await preflightCli();
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain("pass  Kubernetes version: v1.33.0 meets the chart's >=1.29.0-0\n");
    expect(run.stdout).toMatch(/^pass {2}DNS of the app host localhost: resolves to /m);
    expect(run.stdout).toContain('pass  secret jwt-secret: has jwt-secret\n');
    expect(run.stdout).toMatch(/\n\d+ passed, 0 warnings, 0 failed\n$/);
    expect(run.code).toBe(0);
  });

  it('exits 0 with a warning, and 1 with a failure, printing its fix', async () => {
    standIn.put(node('node-small', '2', '4Gi'));
    const warned = await preflightCli();
    expect(warned.stdout).toContain(
      'warn  node sizes: below the recommended 8Gi memory and 4 CPUs: node-small (memory 4Gi, cpu 2)\n      fix: ',
    );
    expect(warned.stdout).toContain(', 1 warning, 0 failed\n');
    expect(warned.code).toBe(0);
    standIn.remove('Secret', 'bosun', 'redis');
    const failed = await preflightCli();
    expect(failed.stdout).toContain('fail  secret redis: missing in namespace bosun');
    expect(failed.stdout).toContain('      fix: bosun install secrets -n bosun');
    expect(failed.stdout).toContain(', 1 warning, 1 failed\n');
    expect(failed.code).toBe(1);
  });

  it('exits 2 on bad options or values', async () => {
    const bad = await runCli(['preflight', '--nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("bosun preflight: Unknown option '--nope'");
    const notYaml = await scratch.write('broken.yaml', 'ingress: [');
    const broken = await runCli(['preflight', '-f', notYaml]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(`-f ${notYaml}: ${notYaml} is not YAML`);
  });
});
