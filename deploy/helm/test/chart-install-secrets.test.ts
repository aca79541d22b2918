import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSecrets } from '../../../packages/cli/test/install-support.ts';
import { runCli } from '../../../packages/cli/test/io.ts';
import { ClusterStandIn } from './support/cluster-stand-in.ts';
import { EXAMPLE, type KubeObject, helm, render } from './support/helm.ts';
import { type Container, podSpec } from './support/objects.ts';

/**
 * `bosun install secrets` and the chart read one table two ways (the CLI's secret-table.ts, the chart's
 * bosun.requiredSecrets): what the CLI prints for a values file must be every Secret and key the rendered chart
 * mounts, and what the chart asks at install.
 */
let cluster: ClusterStandIn;
let dir: string;
let kubeconfig: string;
beforeAll(async () => {
  cluster = await ClusterStandIn.start('bosun');
  dir = mkdtempSync(join(tmpdir(), 'bosun-chart-secrets-'));
  kubeconfig = cluster.kubeconfig(dir);
});
afterAll(async () => {
  await cluster.close();
  rmSync(dir, { recursive: true, force: true });
});

interface SecretRef {
  name: string;
  /** Undefined when the whole Secret is read (envFrom, a volume without items). */
  key?: string;
  where: string;
}

/** Every Secret (and key) a pod of the render reads: env, envFrom, secret volumes and projected ones. */
function secretRefs(objects: readonly KubeObject[]): SecretRef[] {
  const refs: SecretRef[] = [];
  for (const object of objects) {
    const pod = podSpec(object);
    if (!pod) continue;
    const where = `${object.kind}/${object.metadata.name}`;
    for (const container of [...(pod.initContainers ?? []), ...pod.containers] as (Container & {
      envFrom?: { secretRef?: { name: string } }[];
    })[]) {
      for (const variable of container.env ?? []) {
        const ref = variable.valueFrom?.secretKeyRef;
        if (ref) refs.push({ name: ref.name, key: ref.key, where: `${where} ${container.name} ${variable.name}` });
      }
      for (const from of container.envFrom ?? []) {
        if (from.secretRef) refs.push({ name: from.secretRef.name, where: `${where} ${container.name} envFrom` });
      }
    }
    for (const volume of pod.volumes ?? []) {
      const sources = [
        ...(volume.secret ? [{ name: volume.secret.secretName, items: volume.secret.items }] : []),
        ...(volume.projected?.sources ?? []).map((source) => source.secret),
      ];
      for (const { name, items } of sources) {
        if (!items) refs.push({ name, where: `${where} volume ${volume.name}` });
        for (const item of items ?? []) refs.push({ name, key: item.key, where: `${where} volume ${volume.name}` });
      }
    }
  }
  return refs;
}

const VARIANTS: [string, () => string[]][] = [
  ['default values', () => []],
  ['the production example', () => ['-f', EXAMPLE]],
  ['the example with LiteLLM, Keycloak and GitHub disabled', () => ['-f', EXAMPLE, '-f', join(dir, 'disabled.yaml')]],
];

describe('the Secrets bosun install secrets prints are those the chart reads', () => {
  beforeAll(() => {
    const disabled = 'litellm: {enabled: false}\nkeycloak: {enabled: false}\ngithub: {enabled: false}\n';
    writeFileSync(join(dir, 'disabled.yaml'), disabled);
  });

  for (const [variant, flags] of VARIANTS) {
    it(`${variant}: every Secret and key a pod mounts is printed, and nothing else`, async () => {
      const printed = parseSecrets((await runCli(['install', 'secrets', ...flags()])).stdout);
      const byName = new Map(printed.map((secret) => [secret.metadata.name, secret.stringData]));
      const refs = secretRefs(await render(flags()));
      expect(refs.length).toBeGreaterThan(5);
      for (const ref of refs) {
        expect(byName.has(ref.name), `${ref.where} reads Secret ${ref.name}`).toBe(true);
        if (ref.key)
          expect(Object.keys(byName.get(ref.name) ?? {}), `${ref.where} reads ${ref.name}`).toContain(ref.key);
      }
      const read = new Set(refs.map((ref) => ref.name));
      for (const name of byName.keys()) expect(read, `Secret ${name} is printed`).toContain(name);
    });

    it(`${variant}: the chart's install-time check finds every Secret and key it needs`, async () => {
      cluster.secrets.clear();
      for (const secret of parseSecrets((await runCli(['install', 'secrets', ...flags()])).stdout)) {
        cluster.secrets.set(secret.metadata.name, secret.stringData);
      }
      const run = await helm(
        ['template', '--namespace', 'bosun', '--dry-run=server', '--disable-openapi-validation', ...flags()],
        { KUBECONFIG: kubeconfig },
      );
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      // The check does run: without one of them the same render fails naming it.
      cluster.secrets.delete('jwt-secret');
      const without = await helm(
        ['template', '--namespace', 'bosun', '--dry-run=server', '--disable-openapi-validation', ...flags()],
        { KUBECONFIG: kubeconfig },
      );
      expect(without.stderr).toContain('secret jwt-secret is missing in namespace bosun');
    });
  }
});
