import type { Event } from '@bosun/protocol';

/** How many identical rounds in a row mean the agent is stuck. */
export const STUCK_REPEATS = 4;

/**
 * Whether the agent repeats itself since the last user message: the same action with the same result (or the
 * same error) `STUCK_REPEATS` times in a row. Returns a description, or undefined.
 */
export function detectStuck(events: readonly Event[]): string | undefined {
  let start = 0;
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i] as Event;
    if (event.kind === 'MessageEvent' && event.source === 'user') {
      start = i + 1;
      break;
    }
  }
  const rounds: string[] = [];
  const actions = new Map<string, string>();
  for (const event of events.slice(start)) {
    if (event.kind === 'ActionEvent')
      actions.set(event.tool_call_id, `${event.tool_name}:${event.tool_call.arguments}`);
    else if (event.kind === 'ObservationEvent') {
      rounds.push(`${actions.get(event.tool_call_id)}=>${JSON.stringify(event.observation.content)}`);
    } else if (event.kind === 'AgentErrorEvent')
      rounds.push(`${actions.get(event.tool_call_id)}=>error:${event.error}`);
  }
  if (rounds.length < STUCK_REPEATS) return undefined;
  const last = rounds.slice(-STUCK_REPEATS);
  if (last.every((round) => round === last[0])) {
    return `The agent repeated the same action with the same result ${STUCK_REPEATS} times in a row.`;
  }
  return undefined;
}
