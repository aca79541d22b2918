import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxConflictError, SandboxNotFoundError, SandboxSpecError } from '../../src/errors.ts';
import type { KubernetesRuntime } from '../../src/kubernetes/kubernetes-runtime.ts';
import type { KubeObject } from './support/kinds.ts';
import { NAMESPACE, type Wire, objectsOf, openRuntime, startStandIn, validateAll } from './support/kube-fixture.ts';
import type { KubeStandIn } from './support/kube-stand-in.ts';

let standIn: KubeStandIn;
let runtime: KubernetesRuntime;

beforeAll(async () => {
  standIn = await startStandIn();
  runtime = await openRuntime(standIn);
});

afterAll(async () => {
  await runtime?.close();
  await standIn?.close();
});

const keyIn = (secret: KubeObject | undefined) =>
  Buffer.from((secret?.data as Record<string, string>).BOSUN_SESSION_API_KEYS ?? '', 'base64').toString();

describe('a Kubernetes sandbox', () => {
  it('starts RUNNING with valid, labelled objects owned by its root, and a NetworkPolicy that fences it', async () => {
    const sandbox = await runtime.start({
      sessionId: 'conversation-1',
      environment: { LLM_API_KEY: 'sk-secret' },
      resourceFactor: 2,
    });
    expect(sandbox.status).toBe('RUNNING');
    expect(sandbox.url).toBe(`http://${sandbox.id}.sandboxes.bosun.test`);
    expect(validateAll(standIn)).toBeGreaterThanOrEqual(8);

    const objects = objectsOf(standIn, sandbox.id);
    expect([...objects.keys()].sort()).toEqual(
      ['ConfigMap', 'Ingress', 'NetworkPolicy', 'PersistentVolumeClaim', 'Pod', 'Secret', 'Service'].sort(),
    );
    const root = objects.get('ConfigMap')![0]!;
    for (const [kind, [object]] of objects) {
      expect(object!.metadata.namespace).toBe(NAMESPACE);
      expect(object!.metadata.labels).toMatchObject({
        'app.kubernetes.io/managed-by': 'bosun-runtime',
        'bosun.dev/runtime-id': sandbox.id,
      });
      if (kind !== 'ConfigMap') {
        expect(object!.metadata.ownerReferences).toEqual([
          expect.objectContaining({ kind: 'ConfigMap', name: root.metadata.name, uid: root.metadata.uid }),
        ]);
      }
    }
    // The key and the environment are in the Secret only, never in the pod spec or the root.
    const secret = objects.get('Secret')![0];
    expect(keyIn(secret)).toBe(sandbox.sessionApiKey);
    expect(JSON.stringify(objects.get('Pod'))).not.toContain('sk-secret');
    expect(JSON.stringify(root)).not.toContain('sk-secret');

    const pod = objects.get('Pod')![0]!;
    const podSpec = pod.spec as Wire;
    const container = podSpec.containers[0];
    expect(podSpec.automountServiceAccountToken).toBe(false);
    expect(podSpec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 10001, fsGroup: 10001 });
    expect(container.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(container.envFrom).toEqual([{ secretRef: { name: secret!.metadata.name } }]);
    expect(container.resources).toEqual({
      requests: { cpu: '1000m', memory: '2Gi' },
      limits: { cpu: '2', memory: '6Gi' },
    });
    expect(container.volumeMounts).toContainEqual(
      expect.objectContaining({ mountPath: '/workspace', subPath: 'workspace' }),
    );
    expect((objects.get('PersistentVolumeClaim')![0]!.spec as Wire).storageClassName).toBe('fast');
    expect((objects.get('Ingress')![0]!.spec as Wire).rules[0].host).toBe(`${sandbox.id}.sandboxes.bosun.test`);

    const policy = objects.get('NetworkPolicy')![0]!.spec as Wire;
    expect(policy.podSelector).toEqual({ matchLabels: { 'bosun.dev/runtime-id': sandbox.id } });
    expect(policy.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(policy.ingress).toEqual([
      {
        from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } }],
        ports: [{ protocol: 'TCP', port: 8000 }],
      },
    ]);
    // DNS, then only the LLM proxy's pods of the app namespace: not the app, its database or its secrets.
    expect(policy.egress).toEqual([
      {
        to: [
          {
            namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } },
            podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } },
          },
        ],
        ports: [
          { protocol: 'UDP', port: 53 },
          { protocol: 'TCP', port: 53 },
        ],
      },
      {
        to: [
          {
            namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'bosun' } },
            podSelector: { matchLabels: { 'app.kubernetes.io/name': 'llm-proxy' } },
          },
        ],
        ports: [{ protocol: 'TCP', port: 4000 }],
      },
    ]);
  });

  it('pauses by deleting its pod only, and resumes with a new key in its Secret', async () => {
    const started = await runtime.start({ sessionId: 'conversation-pause', environment: { LOG_JSON: '1' } });
    const paused = await runtime.pause(started.id);
    expect(paused).toMatchObject({ status: 'PAUSED', url: null, sessionApiKey: null });
    const kept = objectsOf(standIn, started.id);
    expect(kept.has('Pod')).toBe(false);
    for (const kind of ['ConfigMap', 'Secret', 'PersistentVolumeClaim', 'Service', 'Ingress', 'NetworkPolicy']) {
      expect(kept.get(kind), kind).toHaveLength(1);
    }
    const claimUid = kept.get('PersistentVolumeClaim')![0]!.metadata.uid;
    await expect(runtime.pause(started.id)).resolves.toMatchObject({ status: 'PAUSED' });

    const resumed = await runtime.resume(started.id);
    expect(resumed.status).toBe('RUNNING');
    expect(resumed.sessionApiKey).not.toBe(started.sessionApiKey);
    const after = objectsOf(standIn, started.id);
    expect(keyIn(after.get('Secret')![0])).toBe(resumed.sessionApiKey);
    expect((after.get('Secret')![0]!.data as Record<string, string>).LOG_JSON).toBe(
      Buffer.from('1').toString('base64'),
    );
    expect(after.get('PersistentVolumeClaim')![0]!.metadata.uid).toBe(claimUid);
    expect(after.get('Pod')!.map((pod) => pod.metadata.name)).toEqual([`bosun-sandbox-${started.id}-2`]);
    await expect(runtime.resume(started.id)).rejects.toBeInstanceOf(SandboxConflictError);
  });

  it('is known to a new runtime over the same namespace (the objects are the state)', async () => {
    const started = await runtime.start({ sessionId: 'conversation-restart' });
    const other = await openRuntime(standIn);
    try {
      await expect(other.get(started.id)).resolves.toMatchObject({
        status: 'RUNNING',
        sessionApiKey: started.sessionApiKey,
        url: started.url,
      });
      await expect(other.getBySession('conversation-restart')).resolves.toMatchObject({ id: started.id });
      const [found, unknown] = await other.getManyBySession(['conversation-restart', 'nobody']);
      expect(found?.id).toBe(started.id);
      expect(unknown).toBeUndefined();
      expect((await other.list()).map(({ id }) => id)).toContain(started.id);
      await expect(other.health()).resolves.toMatchObject({ backend: 'kubernetes', isolated: true });
    } finally {
      await other.close();
    }
  });

  it('stops by deleting its root: every child goes with it', async () => {
    const started = await runtime.start({ sessionId: 'conversation-stop' });
    await runtime.stop(started.id);
    expect(objectsOf(standIn, started.id).size).toBe(0);
    await expect(runtime.get(started.id)).resolves.toBeUndefined();
    await expect(runtime.stop(started.id)).rejects.toBeInstanceOf(SandboxNotFoundError);
    await expect(runtime.pause(started.id)).rejects.toBeInstanceOf(SandboxNotFoundError);
    // An id that is not one never reaches a path or a label selector.
    for (const id of [`${started.id},app.kubernetes.io/managed-by`, '../configmaps', 'x/y']) {
      await expect(runtime.get(id)).resolves.toBeUndefined();
      await expect(runtime.resume(id)).rejects.toBeInstanceOf(SandboxNotFoundError);
      await expect(runtime.stop(id)).rejects.toBeInstanceOf(SandboxNotFoundError);
    }
  });

  it('refuses what it cannot run, naming the field', async () => {
    await runtime.start({ sessionId: 'conversation-twice' });
    await expect(runtime.start({ sessionId: 'conversation-twice' })).rejects.toThrow(/session_id: .*already has/);
    await expect(runtime.start({ sessionId: 'x', workingDir: '/var/lib/bosun/w' })).rejects.toThrow(
      /working_dir: must not be or contain \/var\/lib\/bosun/,
    );
    await expect(runtime.start({ sessionId: 'x', runAsUser: 0 })).rejects.toBeInstanceOf(SandboxSpecError);
    await expect(
      runtime.start({ sessionId: 'x', network: { mode: 'allow', hosts: [{ host: 'api.openai.com', port: 443 }] } }),
    ).rejects.toThrow(/network.hosts: api.openai.com: a NetworkPolicy allows addresses, not names/);
  });

  it('lets an allowed address and, under open, public addresses out', async () => {
    const allowed = await runtime.start({
      sessionId: 'conversation-allow',
      network: { mode: 'allow', hosts: [{ host: '203.0.113.9', port: 443 }] },
    });
    const open = await runtime.start({ sessionId: 'conversation-open', network: { mode: 'open' } });
    const egressOf = (id: string) => (objectsOf(standIn, id).get('NetworkPolicy')![0]!.spec as Wire).egress;
    expect(egressOf(allowed.id)).toContainEqual({
      to: [{ ipBlock: { cidr: '203.0.113.9/32' } }],
      ports: [{ protocol: 'TCP', port: 443 }],
    });
    const publicRule = egressOf(open.id).find((rule: Wire) => rule.to[0].ipBlock?.cidr === '0.0.0.0/0');
    expect(publicRule.to[0].ipBlock.except).toEqual(expect.arrayContaining(['10.0.0.0/8', '169.254.0.0/16']));
  });
});
