import type { SandboxInfo, SandboxSpecInfo } from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import type { Sandbox, SandboxSpec } from '../index.ts';

export const SandboxParams = Type.Object(
  { sandbox_id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,100}$', description: 'The sandbox’s id.' }) },
  { additionalProperties: false },
);
export type SandboxParams = { sandbox_id: string };

/** A batch get's ids: OpenHands' `?id=a&id=b`, at most 100. */
export const BatchQuery = Type.Object(
  { id: Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { minItems: 1, maxItems: 100 }) },
  { additionalProperties: false },
);
export type BatchQuery = { id: string[] };

/** A sandbox as its owner sees it on the wire: its key and agent server's URL only while it runs. */
export function sandboxInfo(sandbox: Sandbox): SandboxInfo {
  const url = sandbox.agentServerUrl && (sandbox.browserUrl ?? sandbox.agentServerUrl);
  return {
    id: sandbox.id,
    created_by_user_id: sandbox.ownerId,
    sandbox_spec_id: sandbox.specId,
    status: sandbox.status,
    status_detail: sandbox.statusDetail,
    session_api_key: sandbox.sessionApiKey,
    exposed_urls: url ? [{ name: 'AGENT_SERVER', url, port: portOf(url) }] : null,
    created_at: sandbox.createdAt,
  };
}

export function sandboxSpecInfo(spec: SandboxSpec): SandboxSpecInfo {
  return {
    id: spec.id,
    command: spec.command,
    created_at: spec.createdAt,
    initial_env: spec.initialEnv,
    working_dir: spec.workingDir,
  };
}

/** The port of `url`, its scheme's default when it names none (a proxied URL on the app's public origin). */
function portOf(url: string): number {
  const { port, protocol } = new URL(url);
  return port ? Number(port) : protocol === 'https:' ? 443 : 80;
}
