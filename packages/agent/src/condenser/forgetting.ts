import type { Event } from '@bosun/protocol';

/**
 * Where the view may be cut: `cuts[i]` says whether view[0..i) and view[i..) can be separated. An LLM response's
 * tool calls and their results (observations, rejections, errors), with anything logged between them, are one
 * unit; a response with a call still waiting for its result extends to the end of the view.
 */
export function cutPoints(view: readonly Event[]): boolean[] {
  const n = view.length;
  const ranges = new Map<string, { start: number; end: number; open: Set<string> }>();
  const responseOfAction = new Map<string, string>();
  const responseOfCall = new Map<string, string>();
  const close = (responseId: string | undefined, callId: string, index: number) => {
    const range = responseId === undefined ? undefined : ranges.get(responseId);
    if (!range) return;
    range.end = Math.max(range.end, index);
    range.open.delete(callId);
  };
  view.forEach((event, index) => {
    switch (event.kind) {
      case 'ActionEvent': {
        const range = ranges.get(event.llm_response_id) ?? { start: index, end: index, open: new Set<string>() };
        range.end = index;
        range.open.add(event.tool_call_id);
        ranges.set(event.llm_response_id, range);
        if (event.id !== undefined) responseOfAction.set(event.id, event.llm_response_id);
        responseOfCall.set(event.tool_call_id, event.llm_response_id);
        break;
      }
      case 'ObservationEvent':
      case 'UserRejectObservation':
        close(
          responseOfAction.get(event.action_id) ?? responseOfCall.get(event.tool_call_id),
          event.tool_call_id,
          index,
        );
        break;
      case 'AgentErrorEvent':
        close(responseOfCall.get(event.tool_call_id), event.tool_call_id, index);
        break;
      default:
        break;
    }
  });
  const cuts = new Array<boolean>(n + 1).fill(true);
  for (const range of ranges.values()) {
    const end = range.open.size ? n - 1 : range.end;
    for (let i = range.start + 1; i <= end; i++) cuts[i] = false;
  }
  return cuts;
}

/** Which events a condensation forgets, and where its summary goes. */
export interface ForgettingPlan {
  forgotten: Event[];
  summaryOffset: number;
}

/**
 * Forgets the middle of the view: the head (the first `keepFirst` events, and always the system prompt) and the
 * last `keepLast` events stay. Both boundaries move to the nearest cut point that keeps a tool call with its
 * result: the head grows to the end of a unit it would split, the tail grows to the start of one (or, when that
 * leaves nothing to forget, shrinks past it). Undefined when nothing can be forgotten.
 */
export function planForgetting(
  view: readonly Event[],
  { keepFirst, keepLast }: { keepFirst: number; keepLast: number },
): ForgettingPlan | undefined {
  const n = view.length;
  const cuts = cutPoints(view);
  let head = Math.min(Math.max(0, keepFirst), n);
  if (view[0]?.kind === 'SystemPromptEvent') head = Math.max(head, 1);
  while (head < n && !cuts[head]) head++;
  const desired = Math.max(head, n - Math.max(0, keepLast));
  let tail = desired;
  while (tail > head && !cuts[tail]) tail--;
  if (tail <= head) {
    tail = desired;
    while (tail < n && !cuts[tail]) tail++;
  }
  if (tail <= head) return undefined;
  return { forgotten: view.slice(head, tail), summaryOffset: head };
}
