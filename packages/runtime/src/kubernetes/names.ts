import { createHash } from 'node:crypto';
import type { V1ObjectMeta, V1OwnerReference } from '@kubernetes/client-node';
import { isWarmSessionId } from '../warm-pools.ts';

/** Labels and annotations Bosun puts on a sandbox's objects: they are its state (list and get after a restart). */
export const LABEL = {
  name: 'app.kubernetes.io/name',
  component: 'app.kubernetes.io/component',
  managedBy: 'app.kubernetes.io/managed-by',
  runtimeId: 'bosun.dev/runtime-id',
  /** A hash of the session id: a label value cannot hold every session id (128 characters, any first one). */
  session: 'bosun.dev/session',
  /** On the root of a sandbox waiting in a warm pool (the pool's name); a claim removes it. */
  warmPool: 'bosun.dev/warm-pool',
} as const;

export const ANNOTATION = {
  sessionId: 'bosun.dev/session-id',
  /**
   * What the runtime wants of it: `active` (STARTING or RUNNING, the pod tells which), `paused`, `error`, or
   * `missing` (deleted by the lifecycle sweep: the root alone is kept, to say why).
   */
  state: 'bosun.dev/state',
  statusDetail: 'bosun.dev/status-detail',
  createdAt: 'bosun.dev/created-at',
  /** When its state last changed (the lifecycle sweep's clock); absent on roots older than it: `createdAt`. */
  changedAt: 'bosun.dev/changed-at',
  /** Counts its pods: each resume makes `<name>-<generation>`, so a new pod never waits for the old one to go. */
  generation: 'bosun.dev/generation',
} as const;

export type SandboxState = 'active' | 'paused' | 'error' | 'missing';

/** Every sandbox object of this runtime (a selector). */
export const MANAGED = `${LABEL.managedBy}=bosun-runtime`;

/** The key of the session key in the sandbox's Secret: the agent server reads it from this variable. */
export const SESSION_KEY_VARIABLE = 'BOSUN_SESSION_API_KEYS';

/** The name of every object of sandbox `id` but its pods. */
export function objectName(id: string): string {
  return `bosun-sandbox-${id}`;
}

export function podName(id: string, generation: number): string {
  return `${objectName(id)}-${generation}`;
}

export function sessionLabel(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex').slice(0, 40);
}

export function selectorOf(id: string): string {
  return `${MANAGED},${LABEL.runtimeId}=${id}`;
}

/**
 * The labels of each object of a sandbox. One waiting in a warm pool has no session label (its session id is not
 * yet known): its root gets one when it is claimed, its other objects when they are next written.
 */
export function labelsOf(id: string, sessionId: string): Record<string, string> {
  return {
    [LABEL.name]: 'bosun-sandbox',
    [LABEL.component]: 'sandbox',
    [LABEL.managedBy]: 'bosun-runtime',
    [LABEL.runtimeId]: id,
    ...(isWarmSessionId(sessionId) ? {} : { [LABEL.session]: sessionLabel(sessionId) }),
  };
}

export interface Root {
  id: string;
  sessionId: string;
  namespace: string;
  uid: string;
}

/** Metadata of a child of the sandbox's root: deleting the root deletes it (the garbage collector's cascade). */
export function childMeta(root: Root, name = objectName(root.id)): V1ObjectMeta & { name: string } {
  const owner: V1OwnerReference = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    name: objectName(root.id),
    uid: root.uid,
    controller: true,
    blockOwnerDeletion: true,
  };
  return { name, namespace: root.namespace, labels: labelsOf(root.id, root.sessionId), ownerReferences: [owner] };
}
