import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHART, type KubeObject, find, helm, refusal, render } from './support/helm.ts';
import { validateKubeObject } from './support/kube-schemas.ts';
import { type Container, env, podSpec } from './support/objects.ts';

const set = (...pairs: string[]) => pairs.flatMap((pair) => ['--set', pair]);
/** A license file's shape (header.payload.signature); the chart checks the shape, the app the signature. */
const LICENSE = 'eyJhbGciOiJFZERTQSJ9.eyJzZWF0cyI6MTB9.c2lnbmF0dXJlLW9mLXRoZS1pc3N1ZXI';

const appContainers = (objects: KubeObject[]): Container[] => {
  const spec = podSpec(find(objects, 'Deployment', 'bosun'));
  return [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])];
};
const secretSources = (objects: KubeObject[]) =>
  podSpec(find(objects, 'Deployment', 'bosun'))?.volumes?.find((volume) => volume.name === 'secrets')?.projected
    ?.sources ?? [];

describe.concurrent('the license in the chart', () => {
  it('is absent by default: no BOSUN_LICENSE_FILE, no license file mounted, no Secret made', async () => {
    const objects = await render();
    for (const container of appContainers(objects)) expect(env(container, 'BOSUN_LICENSE_FILE')).toBeUndefined();
    expect(secretSources(objects).flatMap((source) => source.secret.items ?? [])).not.toContainEqual(
      expect.objectContaining({ path: 'license' }),
    );
    expect(objects.filter((object) => object.kind === 'Secret')).toEqual([]);
  });

  it('from an existing Secret: its key is mounted as the file BOSUN_LICENSE_FILE names, in both app containers', async () => {
    const objects = await render(set('license.secretName=acme-license', 'license.key=license.jws'));
    const containers = appContainers(objects);
    expect(containers.map((container) => container.name)).toEqual(['migrate', 'app']);
    for (const container of containers) {
      expect(env(container, 'BOSUN_LICENSE_FILE')).toBe('/var/run/secrets/bosun/license');
      expect(container.volumeMounts).toContainEqual(
        expect.objectContaining({ name: 'secrets', mountPath: '/var/run/secrets/bosun' }),
      );
    }
    expect(secretSources(objects)).toContainEqual({
      secret: { name: 'acme-license', items: [{ key: 'license.jws', path: 'license' }] },
    });
    expect(objects.filter((object) => object.kind === 'Secret')).toEqual([]);
  });

  it('given as a value: kept in a Secret of the chart, mounted the same way, and a new one rolls the pods', async () => {
    const objects = await render(set(`license.value=${LICENSE}`));
    const secret = find(objects, 'Secret', 'bosun-license') as KubeObject & { stringData: Record<string, string> };
    expect(secret.stringData).toEqual({ license: LICENSE });
    expect(secretSources(objects)).toContainEqual({
      secret: { name: 'bosun-license', items: [{ key: 'license', path: 'license' }] },
    });
    for (const container of appContainers(objects)) {
      expect(env(container, 'BOSUN_LICENSE_FILE')).toBe('/var/run/secrets/bosun/license');
    }
    const annotations = (objects: KubeObject[]) =>
      (find(objects, 'Deployment', 'bosun').spec as { template: { metadata: { annotations?: object } } }).template
        .metadata.annotations;
    const other = await render(set(`license.value=${LICENSE}x`));
    expect(annotations(objects)).toEqual({ 'checksum/license': expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(annotations(other)).not.toEqual(annotations(objects));
    expect(annotations(await render())).toBeUndefined();
    for (const object of objects) await validateKubeObject(object);
  });

  it('is given one way only', async () => {
    expect(await refusal(set(`license.value=${LICENSE}`, 'license.secretName=acme-license'))).toContain(
      'license.value and license.secretName are both set',
    );
  });

  const broken: [string, string[], string][] = [
    ['a value that is not a license file', set('license.value=my-license-id'), "'/license/value'"],
    ['a Secret name Kubernetes refuses', set('license.secretName=Acme_License'), "'/license/secretName'"],
    ['a key with a slash', set('license.secretName=acme', 'license.key=a/b'), "'/license/key'"],
    ['an unknown key (a path instead of the content)', set('license.file=/tmp/license'), 'file'],
  ];
  it.each(broken)('values.schema.json refuses %s', async (_name, args, where) => {
    const message = await refusal(args);
    expect(message).toContain("values don't meet the specifications of the schema");
    expect(message).toContain(where);
  });

  it('values.schema.json accepts a license file with its trailing newline', async () => {
    const objects = await render(['--set-string', `license.value=${LICENSE}\n`]);
    expect((find(objects, 'Secret', 'bosun-license') as unknown as { stringData: object }).stringData).toEqual({
      license: LICENSE,
    });
  });
});

describe('Helm older than 4', () => {
  let dir: string;
  beforeAll(() => {
    // A copy of the chart with one template more: it runs the chart's own validation (bosun.validate, as
    // validate.yaml includes it) with every fact of the render but the Helm version, which it says is TEST_HELM.
    dir = mkdtempSync(join(tmpdir(), 'bosun-chart-helm-'));
    cpSync(CHART, join(dir, 'bosun'), { recursive: true });
    writeFileSync(
      join(dir, 'bosun/templates/zz-helm-version.yaml'),
      [
        '{{- $helm := dict "Version" .Values.testHelmVersion -}}',
        '{{- $caps := dict "HelmVersion" $helm "KubeVersion" .Capabilities.KubeVersion "APIVersions" .Capabilities.APIVersions -}}',
        '{{- $values := omit .Values "testHelmVersion" -}}',
        '{{- include "bosun.validate" (dict "Values" $values "Release" .Release "Chart" .Chart "Capabilities" $caps) -}}',
      ].join('\n'),
    );
    // The copy's schema would refuse the extra value: it is not what is tested here.
    rmSync(join(dir, 'bosun/values.schema.json'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const renderAs = (version: string) =>
    // The namespace first: `template` first would render the repository's chart (scripts/helm.mjs fills its path in).
    helm(['--namespace', 'bosun', 'template', 'bosun', join(dir, 'bosun'), '--set', `testHelmVersion=${version}`]);

  it.each(['v3.19.0', 'v3.2.0', 'v3.99.99+unreleased'])('%s: refused, saying Helm 4 is needed', async (version) => {
    const run = await renderAs(version);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(
      `the Bosun chart needs Helm 4 or later, and this is Helm ${version}: install Helm 4 (https://helm.sh/docs/intro/install/)`,
    );
  });

  it.each(['v4.0.0-rc.1', 'v4.0.0', 'v4.1.4', 'v5.0.0'])('%s: renders', async (version) => {
    const run = await renderAs(version);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
