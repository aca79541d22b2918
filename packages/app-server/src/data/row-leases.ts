/**
 * Leases on rows that one replica of the app works on for a while (a start task, a sandbox being started): the
 * replica touches the row every heartbeat; a row nobody touched for a lease is one whose replica stopped. With
 * several replicas (a rolling update, a scale-out), a replica that starts must leave the others' work alone.
 */
export interface Lease {
  heartbeatMs: number;
  leaseMs: number;
}

export const LEASE: Lease = { heartbeatMs: 15_000, leaseMs: 60_000 };

/** A lease of `seconds`, touched every quarter of it (as `LEASE`). */
export function leaseOf(seconds: number): Lease {
  return { heartbeatMs: (seconds * 1000) / 4, leaseMs: seconds * 1000 };
}

/** Touches a row every `heartbeatMs` until the returned function is called; a failed touch waits for the next. */
export function keepLease(touch: () => Promise<unknown>, heartbeatMs = LEASE.heartbeatMs): () => void {
  const heartbeat = setInterval(() => {
    touch().catch(() => undefined);
  }, heartbeatMs);
  return () => clearInterval(heartbeat);
}

/** The time before which a row's lease has run out (an ISO time, as rows keep `updated_at`). */
export function leaseExpiry(leaseMs = LEASE.leaseMs): string {
  return new Date(Date.now() - leaseMs).toISOString();
}
