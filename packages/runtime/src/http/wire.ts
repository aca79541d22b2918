import type { SandboxStatus } from '@bosun/protocol';
import type { ResumeRefresh, RuntimeSandbox, SandboxStartSpec } from '../runtime.ts';
import type { ResumeBody, RuntimeInfoWire, RuntimeStatusWire, StartBody } from './schemas.ts';

const STATUS: Record<SandboxStatus, RuntimeStatusWire> = {
  STARTING: 'starting',
  RUNNING: 'running',
  PAUSED: 'paused',
  ERROR: 'error',
  MISSING: 'stopped',
};

export function runtimeInfo(sandbox: RuntimeSandbox): RuntimeInfoWire {
  return {
    runtime_id: sandbox.id,
    session_id: sandbox.sessionId,
    url: sandbox.url,
    session_api_key: sandbox.sessionApiKey,
    status: STATUS[sandbox.status],
    status_detail: sandbox.statusDetail,
    isolation: sandbox.isolation,
    created_at: sandbox.createdAt,
  };
}

/** A `/start` body as a start spec (a command given as one string is split at whitespace, as OpenHands does). */
export function startSpec(body: StartBody): SandboxStartSpec {
  const command = typeof body.command === 'string' ? body.command.trim().split(/\s+/) : body.command;
  return {
    sessionId: body.session_id,
    ...(body.image === undefined ? {} : { image: body.image }),
    ...(command ? { command } : {}),
    ...(body.working_dir === undefined ? {} : { workingDir: body.working_dir }),
    ...(body.environment === undefined ? {} : { environment: body.environment }),
    ...(body.resource_factor === undefined ? {} : { resourceFactor: body.resource_factor }),
    ...(body.run_as_user === undefined ? {} : { runAsUser: body.run_as_user }),
    ...(body.run_as_group === undefined ? {} : { runAsGroup: body.run_as_group }),
    ...(body.network === undefined ? {} : { network: body.network }),
  };
}

/** A `/resume` body's refresh, or undefined when it has none (a resume as OpenHands' API has it). */
export function resumeRefresh(body: ResumeBody): ResumeRefresh | undefined {
  if (body.environment === undefined && body.network === undefined) return undefined;
  return {
    ...(body.environment === undefined ? {} : { environment: body.environment }),
    ...(body.network === undefined ? {} : { network: body.network }),
  };
}

/** A resume as a `/resume` body (a refresh's parts only when given: OpenHands' API knows none of them). */
export function resumeBody(id: string, refresh: ResumeRefresh | undefined): ResumeBody {
  return {
    runtime_id: id,
    ...(refresh?.environment === undefined ? {} : { environment: { ...refresh.environment } }),
    ...(refresh?.network === undefined ? {} : { network: refresh.network }),
  };
}

/** Field names as the wire has them, for a SandboxSpecError's `field: why`. */
const WIRE_FIELDS: Record<string, string> = { sessionId: 'session_id', workingDir: 'working_dir' };

/** The location and message of a SandboxSpecError (`network.hosts: ...` → `["body", "network", "hosts"]`). */
export function specErrorLocation(message: string): { loc: string[]; msg: string } {
  const match = /^([a-z_.]+): (.*)$/s.exec(message);
  if (!match?.[1] || !match[2]) return { loc: ['body'], msg: message };
  return { loc: ['body', ...match[1].split('.').map((part) => WIRE_FIELDS[part] ?? part)], msg: match[2] };
}

const FROM_WIRE: Record<string, SandboxStatus> = {
  starting: 'STARTING',
  running: 'RUNNING',
  paused: 'PAUSED',
  error: 'ERROR',
  stopped: 'MISSING',
};

/** A `RuntimeInfo` as a sandbox (OpenHands' mapping: an unknown status is MISSING). */
export function sandboxOf(info: Partial<RuntimeInfoWire> & { runtime_id: string; session_id: string }): RuntimeSandbox {
  return {
    id: info.runtime_id,
    sessionId: info.session_id,
    status: FROM_WIRE[String(info.status).toLowerCase()] ?? 'MISSING',
    statusDetail: info.status_detail ?? null,
    url: info.url ?? null,
    sessionApiKey: info.session_api_key ?? null,
    isolation: info.isolation ?? [],
    createdAt: info.created_at ?? '',
  };
}

/** A start spec as a `/start` body. */
export function startBody(spec: SandboxStartSpec): StartBody {
  return {
    session_id: spec.sessionId,
    ...(spec.image === undefined ? {} : { image: spec.image }),
    ...(spec.command === undefined ? {} : { command: [...spec.command] }),
    ...(spec.workingDir === undefined ? {} : { working_dir: spec.workingDir }),
    ...(spec.environment === undefined ? {} : { environment: { ...spec.environment } }),
    ...(spec.resourceFactor === undefined ? {} : { resource_factor: spec.resourceFactor }),
    ...(spec.runAsUser === undefined ? {} : { run_as_user: spec.runAsUser }),
    ...(spec.runAsGroup === undefined ? {} : { run_as_group: spec.runAsGroup }),
    ...(spec.network === undefined ? {} : { network: spec.network }),
  };
}
