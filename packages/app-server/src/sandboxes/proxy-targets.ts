import type { Repositories } from '../data/index.ts';
import type { Sandboxes } from './sandboxes.ts';

/** Where a proxied request goes: the running sandbox's agent server (looked up per request: it moves on resume). */
export interface ProxyTarget {
  agentServerUrl: string;
}

/** Why a request is not proxied: the status and `detail` it is answered with. */
export interface ProxyRefusal {
  status: 401 | 404 | 409;
  detail: string;
}

/** Answers which agent server a request for sandbox `id` presenting session key `key` goes to, or why none. */
export type ProxyTargets = (id: string, key: string | undefined) => Promise<ProxyTarget | ProxyRefusal>;

export const isRefusal = (found: ProxyTarget | ProxyRefusal): found is ProxyRefusal => 'status' in found;

/**
 * The app's sandboxes as proxy targets: a request is proxied only to a sandbox the app knows, that runs, and only
 * with that sandbox's current session key (so one sandbox's key never reaches another sandbox's server, and no
 * other credential reaches any). Else 404 for an id the app does not know, 409 for a sandbox that does not run
 * (paused, starting, failed: its key is revoked), 401 for a running one without its key.
 */
export function sandboxProxyTargets(
  sandboxes: Sandboxes,
  rows: Pick<Repositories['sandboxes'], 'ownerOf'>,
): ProxyTargets {
  return async (id, key) => {
    const keyed = key ? await sandboxes.bySessionKey(key) : undefined;
    if (keyed?.id === id && keyed.status === 'RUNNING' && keyed.agentServerUrl) {
      return { agentServerUrl: keyed.agentServerUrl };
    }
    const ownerId = await rows.ownerOf(id);
    const sandbox = ownerId && (await sandboxes.get(ownerId, id));
    if (!sandbox || sandbox.status === 'MISSING') return { status: 404, detail: 'Sandbox not found' };
    if (sandbox.status !== 'RUNNING') {
      return { status: 409, detail: `The sandbox is ${sandbox.status}, not RUNNING: resume it first` };
    }
    return {
      status: 401,
      detail: "The sandbox's session key is needed (header X-Session-API-Key or query session_api_key)",
    };
  };
}
