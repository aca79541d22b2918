import type { SandboxStatus } from '@bosun/protocol';
import type { RuntimeSandbox } from '@bosun/runtime';
import type { SandboxChange, SandboxRecord } from '../data/index.ts';
import type { Sandbox } from './sandboxes.ts';
import { sessionKeyHash } from './session-keys.ts';

/**
 * A sandbox as its owner sees it: the app's row (owner, spec) with the runtime's status, detail, URL and key. The
 * key is given only when it hashes to the one the row holds: a key the app did not issue is never handed out.
 * A row the runtime started and no longer knows is MISSING. With `browserUrlOf`, a sandbox that runs says where
 * browsers reach its agent server (the app's proxy).
 */
export function sandboxOf(
  record: SandboxRecord,
  found: RuntimeSandbox | undefined,
  browserUrlOf?: (id: string) => string,
): Sandbox {
  const base = rowOf(record);
  if (record.runtime_id === null) return { ...base, statusDetail: record.status_detail };
  if (!found) return { ...base, status: 'MISSING', statusDetail: 'the runtime no longer has it' };
  const issued =
    found.status === 'RUNNING' &&
    found.sessionApiKey !== null &&
    record.session_api_key_hash === sessionKeyHash(found.sessionApiKey);
  return {
    ...base,
    status: found.status,
    // The app's reason (the cap, its own restart) while the runtime has none of its own.
    statusDetail: found.statusDetail ?? (found.status === record.status ? record.status_detail : null),
    ...(issued ? { sessionApiKey: found.sessionApiKey, agentServerUrl: found.url } : {}),
    ...(issued && browserUrlOf ? { browserUrl: browserUrlOf(record.id) } : {}),
  };
}

/** A sandbox while the runtime cannot be asked: the row's last known status, why it is only that, no key or URL. */
export function lastKnownOf(record: SandboxRecord, why: string): Sandbox {
  return { ...rowOf(record), statusDetail: `last known status: ${why}` };
}

/** What the row alone tells of a sandbox: never a key or URL (those are the runtime's). */
function rowOf(record: SandboxRecord): Omit<Sandbox, 'statusDetail'> {
  return {
    id: record.id,
    ownerId: record.user_id,
    specId: record.spec_id,
    createdAt: record.created_at,
    sessionApiKey: null,
    agentServerUrl: null,
    status: record.status as SandboxStatus,
  };
}

/**
 * What the row lacks of the runtime's view, if anything: a sandbox that crashed or was paused behind the app's
 * back (PAUSED or ERROR while the row says it runs) is written down, its key hash revoked, so the cap and
 * `bySessionKey` see what runs. Only if the row is still as read (see `updateUnchanged`): a start or resume that
 * wrote meanwhile wins.
 */
export function catchUp(record: SandboxRecord, sandbox: Sandbox): SandboxChange | undefined {
  const settled = sandbox.status === 'PAUSED' || sandbox.status === 'ERROR';
  if (record.runtime_id === null || !settled || sandbox.status === record.status) return undefined;
  return { status: sandbox.status, status_detail: sandbox.statusDetail, session_api_key_hash: null };
}

/** The row's change for what the runtime answered to a start or resume: its id, status and the new key's hash. */
export function changeFor(found: RuntimeSandbox): SandboxChange {
  const running = found.status === 'RUNNING' && found.sessionApiKey !== null;
  return {
    runtime_id: found.id,
    status: found.status,
    status_detail: found.statusDetail,
    session_api_key_hash: running ? sessionKeyHash(found.sessionApiKey as string) : null,
    ...(running ? { started_at: new Date().toISOString() } : {}),
  };
}
