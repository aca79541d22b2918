import { SandboxSpecError } from './errors.ts';
import { RESOURCE_FACTORS, type ResumeRefresh, type SandboxStartSpec } from './runtime.ts';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HOST = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/;
const SESSION_ID = /^[A-Za-z0-9_.-]{1,128}$/;

/** Checks what every backend requires of a start spec; throws SandboxSpecError naming the first problem. */
export function checkStartSpec(spec: SandboxStartSpec): void {
  const problem = startSpecProblem(spec);
  if (problem) throw new SandboxSpecError(problem);
}

/**
 * A sandbox's start request with what a resume replaces (its whole environment, its network), checked as a start's
 * (SandboxSpecError naming the field); without a refresh, the request as it was.
 */
export function refreshedRequest(request: SandboxStartSpec, refresh: ResumeRefresh | undefined): SandboxStartSpec {
  const refreshed = {
    ...request,
    ...(refresh?.environment ? { environment: { ...refresh.environment } } : {}),
    ...(refresh?.network ? { network: refresh.network } : {}),
  };
  checkStartSpec(refreshed);
  return refreshed;
}

/** What every backend takes from a start spec as it is, defaulted alike but for the command (the backend's own). */
export function sharedSpecOf(request: SandboxStartSpec, command: readonly string[]) {
  return {
    sessionId: request.sessionId,
    command: [...(request.command ?? command)],
    environment: { ...request.environment },
    resourceFactor: request.resourceFactor ?? 1,
  };
}

function startSpecProblem(spec: SandboxStartSpec): string | undefined {
  if (!SESSION_ID.test(spec.sessionId)) return 'session_id: 1 to 128 letters, digits, `_`, `.` or `-`';
  if (spec.resourceFactor !== undefined && !RESOURCE_FACTORS.includes(spec.resourceFactor)) {
    return `resource_factor: one of ${RESOURCE_FACTORS.join(', ')}`;
  }
  for (const [name, value] of Object.entries(spec.environment ?? {})) {
    if (!ENV_NAME.test(name)) return `environment: ${JSON.stringify(name)} is not a variable name`;
    if (typeof value !== 'string' || value.includes('\0')) return `environment.${name}: a string without NUL`;
  }
  for (const [field, id] of [
    ['run_as_user', spec.runAsUser],
    ['run_as_group', spec.runAsGroup],
  ] as const) {
    if (id !== undefined && (!Number.isInteger(id) || id < 0 || id > 0xfffffffe)) return `${field}: a user id`;
  }
  if (spec.command !== undefined && (spec.command.length === 0 || spec.command.some((part) => part.includes('\0')))) {
    return 'command: at least the program, without NUL';
  }
  if (spec.network?.mode === 'allow') {
    for (const { host, port } of spec.network.hosts) {
      if (!HOST.test(host)) return `network.hosts: ${JSON.stringify(host)} is not a host name or IPv4 address`;
      if (!Number.isInteger(port) || port < 1 || port > 65535) return `network.hosts: ${port} is not a port`;
    }
  }
  return undefined;
}
