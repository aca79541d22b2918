export * from './runtime.ts';
export * from './errors.ts';
export { checkStartSpec } from './spec.ts';
export { newSessionKey } from './session-keys.ts';
export { SerialQueues } from './serial-queues.ts';
export { LocalRuntime } from './local/local-runtime.ts';
export type { LocalRuntimeOptions } from './local/local-options.ts';
export type { ResourceLimits } from './local/cgroups.ts';
export { buildRuntimeApi, type RuntimeApiOptions } from './http/runtime-api.ts';
export type { RuntimeInfoWire } from './http/schemas.ts';
export { RemoteRuntime, type RemoteRuntimeOptions } from './remote/remote-runtime.ts';
export { KubernetesRuntime, type KubernetesRuntimeOptions } from './kubernetes/kubernetes-runtime.ts';
export {
  KUBERNETES_PERMISSIONS,
  type KubernetesPermission,
  type KubernetesVerb,
} from './kubernetes/permissions.ts';
export {
  KubernetesRuntimeConfig,
  type KubernetesRuntimeSettings,
  NetworkPeer,
  kubernetesConfigOf,
} from './kubernetes/kubernetes-config.ts';
export type { SandboxRecord, SandboxStore } from './store/sandbox-store.ts';
export { FileSandboxStore } from './store/file-store.ts';
export { DatabaseSandboxStore, type DatabaseStoreOptions } from './store/database-store.ts';
export type { LocalSpec } from './local/launcher.ts';
export type { LifecycleOptions } from './lifecycle.ts';
export { type WarmPoolConfig, servesWarm } from './warm-pools.ts';
export { RuntimeApiConfig } from './service/config.ts';
export { parseAllowedHost, runtimeApiKeySetting, sandboxSettings } from './settings.ts';
export {
  type BackendContext,
  type RunningRuntimeApi,
  type RuntimeBackend,
  RuntimeApiStartError,
  openRuntimeBackend,
  startRuntimeApi,
} from './service/start.ts';
