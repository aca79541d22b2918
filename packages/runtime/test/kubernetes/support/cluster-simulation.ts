import { KINDS, type Kind, type KubeObject } from './kinds.ts';
import type { ObjectStore } from './object-store.ts';

const kind = (name: string): Kind => KINDS.find((candidate) => candidate.kind === name)!;

/** How the simulated cluster treats what is created; tests change it between cases. */
export interface Behaviour {
  /** Claims stay Pending (a provisioner that never answers). */
  claimsNeverBind: boolean;
  /** Pods are never scheduled, with this scheduler message. */
  unschedulable?: string | undefined;
  /** The agent-server container waits with this reason (ErrImagePull...) instead of running. */
  containerWaiting?: { reason: string; message: string } | undefined;
}

type Status = Record<string, unknown>;

/**
 * What controllers and kubelets would do, reduced to status transitions: claims of an existing storage class get
 * Bound; a pod whose claims are bound is scheduled, then Running and Ready (or waits, or stays Unschedulable, as
 * `behaviour` says). Changes go through the store, so watches see them as MODIFIED events.
 */
export class ClusterSimulation {
  readonly behaviour: Behaviour = { claimsNeverBind: false };
  private pending = false;
  private readonly unsubscribe: () => void;

  constructor(private readonly store: ObjectStore) {
    this.unsubscribe = store.subscribe((event) => {
      if (event.kind.kind === 'Pod' || event.kind.kind === 'PersistentVolumeClaim') this.reconcileSoon();
    });
  }

  close(): void {
    this.unsubscribe();
  }

  private reconcileSoon(): void {
    if (this.pending) return;
    this.pending = true;
    setImmediate(() => {
      this.pending = false;
      this.reconcile();
    });
  }

  private reconcile(): void {
    for (const claim of this.everywhere('PersistentVolumeClaim')) this.bind(claim);
    for (const pod of this.everywhere('Pod')) this.advance(pod);
  }

  private everywhere(name: string): KubeObject[] {
    const namespaces = new Set(this.store.all().map(({ object }) => object.metadata.namespace ?? ''));
    return [...namespaces].flatMap((namespace) => this.store.list(kind(name), namespace));
  }

  private bind(claim: KubeObject): void {
    const status = (claim.status ?? {}) as Status;
    if (status.phase === 'Bound' || this.behaviour.claimsNeverBind) return;
    const spec = claim.spec as { storageClassName?: string; accessModes?: string[]; resources?: Status };
    if (!spec.storageClassName || !this.store.get(kind('StorageClass'), undefined, spec.storageClassName)) {
      this.set(claim, 'PersistentVolumeClaim', { phase: 'Pending' });
      return;
    }
    const capacity = (spec.resources as { requests?: Status } | undefined)?.requests ?? {};
    this.store.update(kind('PersistentVolumeClaim'), {
      ...claim,
      spec: { ...spec, volumeName: `pv-${claim.metadata.uid}` },
      status: { phase: 'Bound', accessModes: spec.accessModes, capacity },
    });
  }

  private advance(pod: KubeObject): void {
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const condition = (type: string, status: 'True' | 'False', reason?: string, message?: string) => ({
      type,
      status,
      lastTransitionTime: now,
      ...(reason ? { reason } : {}),
      ...(message ? { message } : {}),
    });
    const current = (pod.status ?? {}) as { phase?: string; conditions?: { type: string; status: string }[] };
    const unbound = this.unboundClaimOf(pod);
    const unschedulable =
      this.behaviour.unschedulable ??
      (unbound && `0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims (${unbound}).`);
    const container = (pod.spec as { containers: { name: string; image: string }[] }).containers[0]!;
    let next: Status;
    if (unschedulable) {
      next = { phase: 'Pending', conditions: [condition('PodScheduled', 'False', 'Unschedulable', unschedulable)] };
    } else if (this.behaviour.containerWaiting) {
      const waiting = this.behaviour.containerWaiting;
      next = {
        phase: 'Pending',
        conditions: [condition('PodScheduled', 'True'), condition('Ready', 'False', 'ContainersNotReady')],
        containerStatuses: [
          {
            name: container.name,
            image: container.image,
            imageID: '',
            ready: false,
            restartCount: 0,
            state: { waiting },
          },
        ],
      };
    } else {
      next = {
        phase: 'Running',
        podIP: '10.1.0.7',
        conditions: [condition('PodScheduled', 'True'), condition('Initialized', 'True'), condition('Ready', 'True')],
        containerStatuses: [
          {
            name: container.name,
            image: container.image,
            imageID: '',
            ready: true,
            started: true,
            restartCount: 0,
            state: { running: { startedAt: now } },
          },
        ],
      };
    }
    const same = (a: Status | undefined, b: Status) =>
      JSON.stringify({ ...a, conditions: undefined }) === JSON.stringify({ ...b, conditions: undefined }) &&
      JSON.stringify((a?.conditions as Status[] | undefined)?.map(({ type, status }) => [type, status])) ===
        JSON.stringify((b.conditions as Status[]).map(({ type, status }) => [type, status]));
    if (!same(current as Status, next)) this.set(pod, 'Pod', next);
  }

  private unboundClaimOf(pod: KubeObject): string | undefined {
    const volumes = (
      (pod.spec as { volumes?: { persistentVolumeClaim?: { claimName: string } }[] }).volumes ?? []
    ).flatMap((volume) => (volume.persistentVolumeClaim ? [volume.persistentVolumeClaim.claimName] : []));
    return volumes.find((name) => {
      const claim = this.store.get(kind('PersistentVolumeClaim'), pod.metadata.namespace, name);
      return (claim?.status as Status | undefined)?.phase !== 'Bound';
    });
  }

  private set(object: KubeObject, kindName: string, status: Status): void {
    if (JSON.stringify(object.status) === JSON.stringify(status)) return;
    this.store.update(kind(kindName), { ...object, status });
  }
}
