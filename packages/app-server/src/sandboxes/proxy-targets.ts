import type { Repositories } from '../data/index.ts';
import type { Sandbox, Sandboxes } from './sandboxes.ts';
import { sessionKeyHash } from './session-keys.ts';

/** Where a proxied request goes: the running sandbox's agent server (looked up per request: it moves on resume). */
export interface ProxyTarget {
  agentServerUrl: string;
}

/** Why a request is not proxied: the status and `detail` it is answered with. */
export interface ProxyRefusal {
  status: 401 | 409 | 410;
  detail: string;
}

/** Answers which agent server a request for sandbox `id` presenting session key `key` goes to, or why none. */
export type ProxyTargets = (id: string, key: string | undefined) => Promise<ProxyTarget | ProxyRefusal>;

export const isRefusal = (found: ProxyTarget | ProxyRefusal): found is ProxyRefusal => 'status' in found;

/** The one answer to a request without the sandbox's key, whether the sandbox exists, runs or not. */
export const KEY_NEEDED: ProxyRefusal = {
  status: 401,
  detail: "The sandbox's session key is needed (header X-Session-API-Key or query session_api_key)",
};

/** How many sandboxes' last admitted keys are remembered (the oldest forgotten first). */
export const REMEMBERED_KEYS = 10_000;

/**
 * The app's sandboxes as proxy targets: a request is proxied only to a sandbox the app knows, that runs, and only
 * with that sandbox's current session key (so one sandbox's key never reaches another sandbox's server, and no
 * other credential reaches any). Looked up for each request, never cached: what runs, and where, is the runtime's
 * answer of the moment.
 *
 * Without the sandbox's key every refusal is the same 401 (`KEY_NEEDED`), whether the id is unknown, paused,
 * deleted or running: the proxy tells nobody which ids exist. Whoever shows the sandbox's key is told why it is not
 * proxied: 409 while it does not run (resume it), 410 once it is gone. "The sandbox's key" is the one its row still
 * holds (a sandbox that stopped behind the app's back, or the runtime lost), or else the last one this process let
 * through to it (a pause revokes the key in the row; remembered in memory, as a hash, for `REMEMBERED_KEYS`
 * sandboxes: after a restart of the app, a paused sandbox's old key gets the 401).
 */
export function sandboxProxyTargets(
  sandboxes: Sandboxes,
  rows: Pick<Repositories['sandboxes'], 'getBySessionKeyHash' | 'ownerOf'>,
): ProxyTargets {
  const admittedKeys = new Map<string, string>();
  const remember = (id: string, hash: string) => {
    admittedKeys.delete(id);
    admittedKeys.set(id, hash);
    if (admittedKeys.size > REMEMBERED_KEYS) admittedKeys.delete(admittedKeys.keys().next().value as string);
  };
  return async (id, key) => {
    if (!key) return KEY_NEEDED;
    const keyed = await sandboxes.bySessionKey(key);
    if (keyed) {
      if (keyed.id !== id || !keyed.agentServerUrl) return KEY_NEEDED;
      const hash = sessionKeyHash(key);
      if (admittedKeys.get(id) !== hash) remember(id, hash);
      return { agentServerUrl: keyed.agentServerUrl };
    }
    const hash = sessionKeyHash(key);
    const held = await rows.getBySessionKeyHash(hash);
    if (held?.id === id) return whyNot(await sandboxes.get(held.user_id, id));
    if (admittedKeys.get(id) !== hash) return KEY_NEEDED;
    const ownerId = await rows.ownerOf(id);
    return whyNot(ownerId === undefined ? undefined : await sandboxes.get(ownerId, id));
  };
}

/** Why a sandbox whose key was shown is not proxied (its key is no longer current if it runs). */
function whyNot(sandbox: Sandbox | undefined): ProxyRefusal {
  if (!sandbox || sandbox.status === 'MISSING') {
    return { status: 410, detail: 'The sandbox no longer exists (its workspace is gone)' };
  }
  if (sandbox.status === 'RUNNING') return KEY_NEEDED;
  return { status: 409, detail: `The sandbox is ${sandbox.status}, not RUNNING: resume it first` };
}
