import type { Runtime, RuntimeSandbox } from '@bosun/runtime';
import type { SandboxRecord } from '../data/index.ts';
import type { SandboxesRepository } from '../data/repositories/sandboxes.ts';
import { LEASE, leaseExpiry } from '../data/row-leases.ts';
import { sandboxOf } from './sandbox-view.ts';

export const RESTARTED = 'the app server restarted: resume it to start it again (with a new key)';

/**
 * At start, the rows the previous run of the app left STARTING or RUNNING are made to agree with the runtime:
 * - still running with the key whose hash the row holds (a runtime service outlives the app): kept RUNNING, the
 *   app takes it over (it asks the runtime for the key, and hands it out only because its hash matches);
 * - running with another key, or none the runtime tells: paused (a key the app did not issue is never trusted,
 *   and nothing is started by itself: an app restart must not start every sandbox at once);
 * - anything else (stopped with an embedded runtime, gone): PAUSED, or ERROR when the runtime says so.
 * Rows changed or touched within `leaseMs` are left alone: another replica of the app is at work on them.
 */
export async function reconcile(
  repository: SandboxesRepository,
  runtime: Runtime,
  { leaseMs }: { leaseMs: number },
): Promise<void> {
  const expiry = leaseExpiry(leaseMs);
  const live = await repository.allWithStatus(['STARTING', 'RUNNING']);
  const rows = leaseMs > 0 ? live.filter((row) => row.updated_at < expiry) : live;
  for (let at = 0; at < rows.length; at += 100) {
    const batch = rows.slice(at, at + 100);
    const found = await runtime.getManyBySession(batch.map((row) => row.id));
    for (const [index, row] of batch.entries()) await settle(repository, runtime, row, found[index]);
  }
}

/**
 * Makes one row left STARTING or RUNNING by a run of the app that stopped agree with the runtime's sandbox of its
 * session (`sandbox`, if any): kept when it runs with the key the row holds, else paused (or ERROR).
 */
export async function settle(
  repository: SandboxesRepository,
  runtime: Runtime,
  row: SandboxRecord,
  sandbox: RuntimeSandbox | undefined,
): Promise<void> {
  // One the app did not learn the id of (it stopped during the runtime's start) is its all the same.
  const known = sandbox && (row.runtime_id ?? sandbox.id) === sandbox.id ? sandbox : undefined;
  const view = sandboxOf({ ...row, runtime_id: known?.id ?? row.runtime_id }, known);
  if (view.status === 'RUNNING' && view.sessionApiKey !== null) return;
  if (known && (known.status === 'RUNNING' || known.status === 'STARTING')) await runtime.pause(known.id);
  const status = view.status === 'ERROR' ? 'ERROR' : 'PAUSED';
  const detail = status === 'ERROR' ? view.statusDetail : RESTARTED;
  const runtimeId = known ? { runtime_id: known.id } : {};
  await repository.update(row.id, { status, status_detail: detail, session_api_key_hash: null, ...runtimeId });
}

/** How long a row another replica changed or touched is left to it (see `RuntimeSandboxesOptions.leaseMs`). */
export const leaseMsOf = (options: { leaseMs?: number; pauseOnClose: boolean }) =>
  options.leaseMs ?? (options.pauseOnClose ? 0 : LEASE.leaseMs);

/**
 * The row, made to agree with the runtime first (as at open) when it is a start another run of the app left under
 * way past its lease: a sandbox that run started without learning its id is paused, not started twice. With
 * whether it is a start under way within its lease (to be left alone).
 */
export async function settleAbandoned(
  options: { repository: SandboxesRepository; runtime: Runtime; leaseMs?: number; pauseOnClose: boolean },
  record: SandboxRecord | undefined,
): Promise<[SandboxRecord | undefined, boolean]> {
  const { repository, runtime } = options;
  if (record?.status !== 'STARTING') return [record, false];
  if (record.updated_at >= leaseExpiry(leaseMsOf(options))) return [record, true];
  await settle(repository, runtime, record, (await runtime.getManyBySession([record.id]))[0]);
  return [await repository.get(record.user_id, record.id), false];
}
