import type { Runtime } from '@bosun/runtime';
import type { SandboxesRepository } from '../data/repositories/sandboxes.ts';
import { leaseExpiry } from '../row-leases.ts';
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
    for (const [index, row] of batch.entries()) {
      const sandbox = found[index];
      // One the app did not learn the id of (it stopped during the runtime's start) is its all the same.
      const known = sandbox && (row.runtime_id ?? sandbox.id) === sandbox.id ? sandbox : undefined;
      const view = sandboxOf({ ...row, runtime_id: known?.id ?? row.runtime_id }, known);
      if (view.status === 'RUNNING' && view.sessionApiKey !== null) continue;
      if (known && (known.status === 'RUNNING' || known.status === 'STARTING')) await runtime.pause(known.id);
      const status = view.status === 'ERROR' ? 'ERROR' : 'PAUSED';
      const detail = status === 'ERROR' ? view.statusDetail : RESTARTED;
      const runtimeId = known ? { runtime_id: known.id } : {};
      await repository.update(row.id, { status, status_detail: detail, session_api_key_hash: null, ...runtimeId });
    }
  }
}
