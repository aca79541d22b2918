export { type SandboxRuntime, SandboxRuntimeError, openSandboxRuntime } from './open-runtime.ts';
export { RESTARTED } from './reconcile.ts';
export { type RuntimeSandboxesOptions, RuntimeSandboxes, type SandboxLaunch } from './runtime-sandboxes.ts';
export { agentClient, agentOf, agentStillHas } from './sandbox-agent.ts';
export { type SandboxNetworkMode, sandboxNetwork } from './sandbox-network.ts';
export type { Sandbox, SandboxPageRequest, SandboxSpec, Sandboxes } from './sandboxes.ts';
export { newSessionKey, sessionKeyHash } from './session-keys.ts';
export { LOCAL_SPEC, SANDBOX_SPECS } from './specs.ts';
