import type { V1ConfigMap, V1PersistentVolumeClaim, V1Pod, V1Secret } from '@kubernetes/client-node';
import type { KubeApi, Named } from './kube-api.ts';
import { KubeError } from './kube-error.ts';
import { ANNOTATION, LABEL, MANAGED, type Root, SESSION_KEY_VARIABLE, sessionLabel } from './names.ts';

/** What Kubernetes holds of one sandbox: the runtime's whole state of it. */
export interface SandboxObjects {
  root: V1ConfigMap;
  /** Its live pod (not being deleted), the newest generation. */
  pod: V1Pod | undefined;
  claim: V1PersistentVolumeClaim | undefined;
  secret: V1Secret | undefined;
}

/** The sandboxes matching `selector`, by id, in four list calls. */
export async function snapshot(api: KubeApi, selector: string): Promise<Map<string, SandboxObjects>> {
  const query = { labelSelector: selector };
  const [roots, pods, claims, secrets] = await Promise.all([
    api.list<V1ConfigMap>('v1', 'ConfigMap', query),
    api.list<V1Pod>('v1', 'Pod', query),
    api.list<V1PersistentVolumeClaim>('v1', 'PersistentVolumeClaim', query),
    api.list<V1Secret>('v1', 'Secret', query),
  ]);
  const idOf = (object: { metadata?: { labels?: Record<string, string> } }) =>
    object.metadata?.labels?.[LABEL.runtimeId] ?? '';
  const found = new Map<string, SandboxObjects>();
  for (const root of roots.items) {
    found.set(idOf(root), { root, pod: undefined, claim: undefined, secret: undefined });
  }
  for (const pod of pods.items) {
    const entry = found.get(idOf(pod));
    if (!entry || pod.metadata?.deletionTimestamp) continue;
    if (!entry.pod || generationOfPod(pod) > generationOfPod(entry.pod)) entry.pod = pod;
  }
  for (const claim of claims.items) {
    const entry = found.get(idOf(claim));
    if (entry) entry.claim = claim;
  }
  for (const secret of secrets.items) {
    const entry = found.get(idOf(secret));
    if (entry) entry.secret = secret;
  }
  return found;
}

function generationOfPod(pod: V1Pod): number {
  return Number(/-([0-9]+)$/.exec(pod.metadata?.name ?? '')?.[1] ?? 0);
}

export function rootOf(root: V1ConfigMap): Root {
  const metadata = root.metadata ?? {};
  return {
    id: metadata.labels?.[LABEL.runtimeId] ?? '',
    sessionId: metadata.annotations?.[ANNOTATION.sessionId] ?? '',
    namespace: metadata.namespace ?? '',
    uid: metadata.uid ?? '',
  };
}

/** The sandboxes of callers (not those waiting in a warm pool), in four list calls. */
export async function claimedSnapshot(api: KubeApi): Promise<SandboxObjects[]> {
  return [...(await snapshot(api, MANAGED)).values()].filter(({ root }) => waitingPool(root) === undefined);
}

/** The root of the sandbox started under `sessionId`, if any (found by its session label). */
export async function rootOfSession(api: KubeApi, sessionId: string): Promise<V1ConfigMap | undefined> {
  const same = await api.list<V1ConfigMap>('v1', 'ConfigMap', {
    labelSelector: `${MANAGED},${LABEL.session}=${sessionLabel(sessionId)}`,
  });
  return same.items.find((root) => root.metadata?.annotations?.[ANNOTATION.sessionId] === sessionId);
}

const createdOf = (root: V1ConfigMap) => root.metadata?.annotations?.[ANNOTATION.createdAt] ?? '';

/** Oldest first. */
export const byCreation = (a: V1ConfigMap, b: V1ConfigMap) => createdOf(a).localeCompare(createdOf(b));

/** The warm pool a sandbox waits in (invisible to callers until claimed), or undefined for a caller's. */
export function waitingPool(root: V1ConfigMap): string | undefined {
  return root.metadata?.labels?.[LABEL.warmPool];
}

export function sessionKeyOf(secret: V1Secret | undefined): string | null {
  const encoded = secret?.data?.[SESSION_KEY_VARIABLE];
  return encoded ? Buffer.from(encoded, 'base64').toString('utf8') : null;
}

/** The Secret's variables but the session key (a resume gives a new one). */
export function environmentOf(secret: V1Secret | undefined): Record<string, string> {
  const entries = Object.entries(secret?.data ?? {}).map(([name, value]) => [
    name,
    Buffer.from(value, 'base64').toString('utf8'),
  ]);
  const environment = Object.fromEntries(entries) as Record<string, string>;
  delete environment[SESSION_KEY_VARIABLE];
  return environment;
}

/**
 * Creates a child of the sandbox's root. When one of that name exists: if it is this sandbox's, `onOwned` decides
 * (the Secret is replaced, with a new key; the rest is kept); if it is not, a 409 naming it. When the API says it
 * exists but it is gone by the time it is read (a deletion in between), the create is tried once more.
 */
export async function ensureChild<T extends Named>(
  api: KubeApi,
  root: Root,
  object: T,
  onOwned: 'keep' | 'replace',
): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await api.create(object);
      return;
    } catch (error) {
      if (!(error instanceof KubeError) || error.code !== 409) throw error;
    }
    const existing = await api.read<T>(object.apiVersion, object.kind, object.metadata.name);
    if (!existing) continue;
    const owned = existing.metadata?.ownerReferences?.some((owner) => owner.uid === root.uid);
    if (!owned) {
      throw new KubeError(
        409,
        'AlreadyExists',
        `${object.kind} ${object.metadata.name} already exists in namespace ${root.namespace} and is not this sandbox's`,
      );
    }
    if (onOwned === 'replace') {
      const resourceVersion = existing.metadata?.resourceVersion;
      await api.replace({ ...object, metadata: { ...object.metadata, resourceVersion } });
    }
    return;
  }
  throw new KubeError(409, 'AlreadyExists', `${object.kind} ${object.metadata.name} kept conflicting on create`);
}
