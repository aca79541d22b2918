import type { StoredEvent } from '@bosun/protocol';

/** Actions that were stored but never got a result (accepted after confirmation, for example). */
export function pendingActions(history: readonly StoredEvent[]): StoredEvent<'ActionEvent'>[] {
  const answered = new Set<string>();
  for (const event of history) {
    if (event.kind === 'ObservationEvent' || event.kind === 'UserRejectObservation') answered.add(event.action_id);
    if (event.kind === 'AgentErrorEvent') answered.add(event.tool_call_id);
  }
  return history.filter(
    (event): event is StoredEvent<'ActionEvent'> =>
      event.kind === 'ActionEvent' &&
      event.action != null &&
      !answered.has(event.id) &&
      !answered.has(event.tool_call_id),
  );
}
