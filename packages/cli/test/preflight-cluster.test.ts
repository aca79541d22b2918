import { describe, expect, it } from 'vitest';
import { closedPort } from './install-support.ts';
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

const scratch = scratchDir('bosun-preflight-cluster-');
const cluster = usePassingCluster(scratch);

const run = (extra: Record<string, unknown> = {}) =>
  preflight([EXAMPLE, cluster.local], cluster.kubeconfig, undefined, extra);

describe('bosun preflight on a ready cluster', () => {
  it('passes every check, naming what it found', async () => {
    const results = await run();
    expect(results.filter((r) => r.outcome !== 'pass')).toEqual([]);
    expect(result(results, 'Kubernetes version').detail).toBe("v1.33.0 meets the chart's >=1.29.0-0");
    expect(result(results, 'storage class gp3').detail).toBe('exists (runtime-api.env.STORAGE_CLASS)');
    expect(result(results, 'ingress class nginx').detail).toBe('exists (controller k8s.io/ingress-nginx)');
    expect(result(results, 'node sizes').detail).toBe('2 nodes, each with at least 8Gi memory and 4 CPUs');
    expect(result(results, 'external database 127.0.0.1:5432').detail).toBe('accepts connections');
    expect(results.map((r) => r.check)).toEqual(
      expect.arrayContaining([
        'DNS of the app host bosun.example.com',
        'DNS of the auth host auth.bosun.example.com',
        'DNS of the sandbox host preflight0sandbox-runtime.example.com',
        'TLS of the app host bosun.example.com',
        'TLS of the auth host auth.bosun.example.com',
        'TLS of the sandbox host preflight0sandbox-runtime.example.com',
        'secret github-app',
      ]),
    );
  });
});

describe('bosun preflight finds', () => {
  it("a Kubernetes version below the chart's kubeVersion (fail)", async () => {
    cluster.standIn.version = { major: '1', minor: '28', gitVersion: 'v1.28.3-eks-1a2b3c' };
    expect(result(await run(), 'Kubernetes version')).toMatchObject({
      outcome: 'fail',
      detail: "v1.28.3-eks-1a2b3c does not meet the chart's kubeVersion >=1.29.0-0",
      fix: 'upgrade the cluster to a Kubernetes version >=1.29.0-0',
    });
  });

  it('a storage class the values name that does not exist (fail)', async () => {
    cluster.standIn.remove('StorageClass', '', 'gp3');
    expect(result(await run(), 'storage class gp3')).toMatchObject({
      outcome: 'fail',
      detail: 'not found (runtime-api.env.STORAGE_CLASS)',
      fix: 'create it, or set runtime-api.env.STORAGE_CLASS to one of: standard',
    });
  });

  it('no default storage class where the values name none (fail), and one (pass)', async () => {
    const defaults = { 'runtime-api': { env: { STORAGE_CLASS: '' } }, postgresql: { enabled: true } };
    const keys = 'runtime-api.env.STORAGE_CLASS, postgresql.persistence.storageClass';
    expect(result(await run(defaults), 'default storage class')).toMatchObject({
      outcome: 'pass',
      detail: `standard (used where ${keys} is empty)`,
    });
    cluster.standIn.remove('StorageClass', '', 'standard');
    expect(result(await run(defaults), 'default storage class')).toMatchObject({
      outcome: 'fail',
      detail: `none, and ${keys} is empty`,
      fix: `mark one default (kubectl annotate storageclass gp3 storageclass.kubernetes.io/is-default-class=true) or set ${keys} to one of: gp3`,
    });
  });

  it('an ingress class the values name that does not exist (fail)', async () => {
    cluster.standIn.remove('IngressClass', '', 'nginx');
    cluster.standIn.put(ingressClass('traefik'));
    expect(result(await run(), 'ingress class nginx')).toMatchObject({
      outcome: 'fail',
      fix: 'set ingress.class to one of: traefik',
    });
  });

  it('the default ingress class when the values name none (pass), none default (fail), no controller (fail)', async () => {
    const noClass = { ingress: { class: '' } };
    cluster.standIn.put(ingressClass('traefik', true));
    expect(result(await run(noClass), 'default ingress class')).toMatchObject({
      outcome: 'pass',
      detail: 'traefik (ingress.class is empty)',
    });
    cluster.standIn.remove('IngressClass', '', 'traefik');
    expect(result(await run(noClass), 'default ingress class')).toMatchObject({
      outcome: 'fail',
      detail: 'none among nginx, and ingress.class is empty',
    });
    cluster.standIn.remove('IngressClass', '', 'nginx');
    expect(result(await run(noClass), 'ingress controller')).toMatchObject({
      outcome: 'fail',
      detail: 'no IngressClass in the cluster',
      fix: 'install an ingress controller (e.g. ingress-nginx)',
    });
  });

  it('nodes below the recommended memory or CPU (warn), and no node (fail)', async () => {
    cluster.standIn.put(node('node-small', '2', '4Gi'));
    cluster.standIn.put(node('node-thin', '16', '6000Mi'));
    expect(result(await run(), 'node sizes')).toMatchObject({
      outcome: 'warn',
      detail: 'below the recommended 8Gi memory and 4 CPUs: node-small (memory 4Gi, cpu 2); node-thin (memory 6000Mi)',
    });
    for (const name of ['node-a', 'node-b', 'node-small', 'node-thin']) cluster.standIn.remove('Node', '', name);
    expect(result(await run(), 'node sizes')).toMatchObject({ outcome: 'fail', detail: 'the cluster has no node' });
  });

  it('nodes it may not list (warn), and storage classes it may not list (fail)', async () => {
    const forbidden = (resource: string) =>
      cluster.standIn.fail({
        verb: 'list',
        resource,
        code: 403,
        reason: 'Forbidden',
        message: `cannot list ${resource}`,
      });
    forbidden('nodes');
    forbidden('storageclasses');
    const results = await run();
    expect(result(results, 'node sizes')).toMatchObject({
      outcome: 'warn',
      detail: 'list Nodes: Forbidden (403): cannot list nodes',
      fix: "give the kubeconfig's credentials read access to it",
    });
    expect(result(results, 'storage classes')).toMatchObject({
      outcome: 'fail',
      detail: 'list StorageClasses: Forbidden (403): cannot list storageclasses',
    });
  });

  it('an external database that does not accept connections (fail)', async () => {
    const port = await closedPort();
    const results = await run({ externalDatabase: { host: '127.0.0.1', port } });
    expect(result(results, `external database 127.0.0.1:${port}`)).toMatchObject({
      outcome: 'fail',
      detail: 'cannot connect (ECONNREFUSED)',
    });
  });

  it('a Kubernetes API that does not answer: one failure for the cluster, the other checks still run', async () => {
    await cluster.standIn.close();
    const results = await run();
    const ofCluster = results.filter((r) => !r.check.startsWith('DNS') && !r.check.startsWith('external'));
    expect(ofCluster).toHaveLength(1);
    expect(ofCluster[0]).toMatchObject({ outcome: 'fail', check: 'Kubernetes version' });
    expect(ofCluster[0]?.detail).toContain('did not answer');
    expect(result(results, 'external database 127.0.0.1:5432').outcome).toBe('pass');
    expect(result(results, 'DNS of the app host bosun.example.com').outcome).toBe('pass');
  });
});
