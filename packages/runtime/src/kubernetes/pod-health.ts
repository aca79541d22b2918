import type { V1PersistentVolumeClaim, V1Pod } from '@kubernetes/client-node';
import { CONTAINER } from './pod-manifest.ts';

/** What a sandbox's pod says about it. `since`: when it became so (for how long it may stay so). */
export type PodHealth =
  | { kind: 'ready' }
  | { kind: 'waiting'; detail: string }
  | { kind: 'failed'; detail: string }
  | { kind: 'unschedulable'; detail: string; since: number };

/** Container states that do not end by waiting: a start that meets one is an ERROR with the kubelet's reason. */
const FATAL_WAITING = new Set([
  'CrashLoopBackOff',
  'ErrImagePull',
  'ImagePullBackOff',
  'InvalidImageName',
  'CreateContainerConfigError',
  'CreateContainerError',
]);

export function podHealth(pod: V1Pod | undefined): PodHealth {
  if (!pod) return { kind: 'waiting', detail: 'its pod is not created yet' };
  const status = pod.status ?? {};
  if (status.phase === 'Failed' || status.phase === 'Succeeded') {
    const why = [status.reason, status.message].filter(Boolean).join(': ');
    return {
      kind: 'failed',
      detail: `its pod ${status.phase === 'Failed' ? 'failed' : 'ended'}${why ? `: ${why}` : ''}`,
    };
  }
  const container = status.containerStatuses?.find((candidate) => candidate.name === CONTAINER);
  const waiting = container?.state?.waiting;
  if (waiting?.reason && FATAL_WAITING.has(waiting.reason)) {
    const last = container?.lastState?.terminated;
    const ended = last ? ` (it last ended with code ${last.exitCode}${last.reason ? `, ${last.reason}` : ''})` : '';
    return {
      kind: 'failed',
      detail: `its agent server cannot run: ${waiting.reason}: ${waiting.message ?? ''}${ended}`,
    };
  }
  const scheduled = status.conditions?.find((condition) => condition.type === 'PodScheduled');
  if (scheduled?.status === 'False' && scheduled.reason === 'Unschedulable') {
    const since = timeOf(scheduled.lastTransitionTime) ?? timeOf(pod.metadata?.creationTimestamp) ?? Date.now();
    return { kind: 'unschedulable', detail: `its pod cannot be scheduled: ${scheduled.message ?? ''}`, since };
  }
  const ready = status.conditions?.find((condition) => condition.type === 'Ready');
  if (ready?.status === 'True') return { kind: 'ready' };
  const why = waiting?.reason ? `${waiting.reason}${waiting.message ? `: ${waiting.message}` : ''}` : status.phase;
  return { kind: 'waiting', detail: `its pod is not ready (${why ?? 'Pending'})` };
}

/** Why the claim holds the sandbox back, once it has been unbound longer than `timeoutMs`; else undefined. */
export function claimProblem(
  claim: V1PersistentVolumeClaim | undefined,
  timeoutMs: number,
  now: number,
): string | undefined {
  if (!claim || claim.status?.phase === 'Bound') return undefined;
  const created = timeOf(claim.metadata?.creationTimestamp) ?? now;
  if (now - created < timeoutMs) return undefined;
  const phase = claim.status?.phase ?? 'Pending';
  const storageClass = claim.spec?.storageClassName ?? 'the default storage class';
  return `its workspace claim ${claim.metadata?.name} is ${phase}, not Bound, after ${Math.round(timeoutMs / 1000)} s (storage class ${storageClass})`;
}

function timeOf(value: Date | string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? undefined : time;
}
