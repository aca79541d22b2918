import { useCallback, useState } from 'react';

/** A message sent (or queued) that is not yet an event of the conversation. */
export interface PendingMessage {
  localId: string;
  text: string;
  /** `sending`: on its way; `queued`: waits for the conversation to run; `failed`: not taken (`error` says why). */
  state: 'sending' | 'sent' | 'queued' | 'failed';
  error?: unknown;
  /** How many user messages with this text the conversation had when it was sent (it shows once there is one more). */
  baseline: number;
}

let counter = 0;

/** Messages shown as pending until they appear as events. */
export function usePending(initial: PendingMessage[] = []) {
  const [pending, setPending] = useState<PendingMessage[]>(initial);
  const add = useCallback((text: string, baseline: number, state: PendingMessage['state'] = 'sending') => {
    counter += 1;
    const message: PendingMessage = { localId: `pending-${Date.now()}-${counter}`, text, state, baseline };
    setPending((list) => [...list, message]);
    return message.localId;
  }, []);
  const update = useCallback((localId: string, change: Partial<PendingMessage>) => {
    setPending((list) => list.map((message) => (message.localId === localId ? { ...message, ...change } : message)));
  }, []);
  const remove = useCallback((localId: string) => {
    setPending((list) => list.filter((message) => message.localId !== localId));
  }, []);
  return { pending, add, update, remove };
}

/** The pending messages not yet seen among the conversation's user messages (counted by text). */
export function unseen(pending: readonly PendingMessage[], userTexts: ReadonlyMap<string, number>): PendingMessage[] {
  const used = new Map<string, number>();
  return pending.filter((message) => {
    const key = message.text.trim();
    const taken = (used.get(key) ?? 0) + 1;
    const seen = (userTexts.get(key) ?? 0) - message.baseline >= taken;
    if (seen) used.set(key, taken);
    return !seen;
  });
}
