export { AgentProcess, type AgentProcessOptions } from './agent-process.ts';
export { agentServerCommand } from './agent-command.ts';
export { type LocalSandboxesOptions, LocalSandboxes } from './local-sandboxes.ts';
export { agentClient, agentOf, agentStillHas } from './sandbox-agent.ts';
export type { Sandbox, SandboxPageRequest, SandboxSpec, Sandboxes } from './sandboxes.ts';
export { newSessionKey, sessionKeyHash } from './session-keys.ts';
export { LOCAL_SPEC, SANDBOX_SPECS } from './specs.ts';
