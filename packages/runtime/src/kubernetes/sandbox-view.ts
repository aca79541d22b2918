import type { RuntimeSandbox } from '../runtime.ts';
import { probeSandbox } from './ingress-probe.ts';
import type { KubeSpec } from './kube-spec.ts';
import type { KubernetesRuntimeConfig } from './kubernetes-config.ts';
import { ANNOTATION, type SandboxState } from './names.ts';
import { claimProblem, podHealth } from './pod-health.ts';
import { scaled } from './pod-manifest.ts';
import { type SandboxObjects, rootOf, sessionKeyOf } from './sandbox-objects.ts';
import type { SandboxUrls } from './sandbox-urls.ts';

export interface ViewContext {
  config: KubernetesRuntimeConfig;
  urls: SandboxUrls;
  /** Whether this runtime is starting it now (it then waits; nobody else decides its fate). */
  starting: (id: string) => boolean;
}

const GONE = 'its pod is gone (deleted, evicted, or its node failed): resume it to start it again';

/**
 * A sandbox's status from its objects: PAUSED and ERROR as its root says (MISSING once its claim is gone, or when
 * the root says so: the lifecycle sweep deleted the rest); an
 * active one is RUNNING only when its pod is Ready AND its URL answers through the Ingress, STARTING while on its
 * way, and ERROR when its pod failed, is gone, or is stuck (then `reap` says why, for the runtime to record).
 */
export async function viewOf(
  objects: SandboxObjects,
  context: ViewContext,
): Promise<{ sandbox: RuntimeSandbox; reap?: string }> {
  const { root, pod, claim } = objects;
  const { id, sessionId } = rootOf(root);
  const annotations = root.metadata?.annotations ?? {};
  const state = (annotations[ANNOTATION.state] ?? 'error') as SandboxState;
  const base = {
    id,
    sessionId,
    url: null,
    sessionApiKey: null,
    isolation: isolationOf(specOf(root.data?.['spec.json']), context.config),
    createdAt: annotations[ANNOTATION.createdAt] ?? '',
  };
  const settled = (status: RuntimeSandbox['status'], statusDetail: string | null) => ({
    sandbox: { ...base, status, statusDetail },
  });
  if (state === 'missing') return settled('MISSING', annotations[ANNOTATION.statusDetail] ?? null);
  if (state !== 'active') {
    if (!claim) return settled('MISSING', 'its workspace claim no longer exists');
    return settled(state === 'paused' ? 'PAUSED' : 'ERROR', annotations[ANNOTATION.statusDetail] ?? null);
  }
  const health = podHealth(pod);
  if (context.starting(id)) return settled('STARTING', health.kind === 'ready' ? null : detailOf(health));
  const unbound = claimProblem(claim, context.config.volume_bind_timeout_ms, Date.now());
  const stuck = health.kind === 'unschedulable' && Date.now() - health.since >= context.config.unschedulable_timeout_ms;
  const reap = !pod ? GONE : health.kind === 'failed' || stuck ? health.detail : unbound;
  if (reap) return { ...settled('ERROR', reap), reap };
  if (health.kind !== 'ready') return settled('STARTING', detailOf(health));
  const url = context.urls.urlOf(id);
  const unreachable = await probeSandbox(url, {
    timeoutMs: context.config.probe_timeout_ms,
    address: context.config.probe_address,
  });
  if (unreachable) return settled('STARTING', `its pod is ready but its URL is not: ${unreachable}`);
  return {
    sandbox: { ...base, status: 'RUNNING', statusDetail: null, url, sessionApiKey: sessionKeyOf(objects.secret) },
  };
}

function detailOf(health: ReturnType<typeof podHealth>): string | null {
  return health.kind === 'ready' ? null : health.detail;
}

function specOf(json: string | undefined): Partial<KubeSpec> {
  try {
    return JSON.parse(json ?? '{}') as Partial<KubeSpec>;
  } catch {
    return {};
  }
}

/** What is enforced on it, a sentence each. */
function isolationOf(spec: Partial<KubeSpec>, config: KubernetesRuntimeConfig): string[] {
  const factor = spec.resourceFactor ?? 1;
  const network = spec.network?.mode ?? 'none';
  return [
    `kubernetes: its own pod in namespace ${config.namespace}, no service-account token`,
    `user ${spec.runAsUser ?? config.run_as_user}:${spec.runAsGroup ?? config.run_as_group}, no capability, no privilege escalation, read-only root file system`,
    `cpu: ${scaled(config.cpu_limit, factor)}, memory: ${scaled(config.memory_limit, factor)} (limits)`,
    `network: ${network} (NetworkPolicy: DNS and the runtime's egress${network === 'open' ? ', public addresses' : ''}${network === 'allow' ? ', its allowed addresses' : ''}; reached only from the ingress controller)`,
  ];
}
