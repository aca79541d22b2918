import type { AppConversation } from '../data/index.ts';
import type { Sandboxes } from '../sandboxes/index.ts';
import { agentClientOf, agentSourceOf } from './agent-source.ts';

type Listener = (frame: string) => void;

/** How long to wait before looking again for a sandbox that does not run (or whose socket dropped). */
const RETRY_MS = 2_000;

interface Relay {
  listeners: Set<Listener>;
  stop: AbortController;
}

/**
 * The stream frames of conversations (the agent's answer as it is written), relayed from their sandboxes' agent
 * servers to the app's event sockets that asked for them. While at least one socket listens to a conversation,
 * this replica follows its sandbox's event socket with `stream=true` (its direct address and session key, looked
 * up again whenever the sandbox is not reachable, so a resumed sandbox is found); the last listener leaving
 * closes it. Only stream frames go through here: the events come from the store, never from this socket.
 */
export class StreamRelay {
  readonly #relays = new Map<string, Relay>();

  constructor(
    private readonly deps: {
      sandboxes: Pick<Sandboxes, 'get'>;
      conversations: { get(userId: string, id: string): Promise<AppConversation | undefined> };
    },
  ) {}

  /** Gives `listener` each stream frame of `conversation` (as sent: JSON text) until the returned call. */
  listen(conversation: AppConversation, listener: Listener): () => void {
    let relay = this.#relays.get(conversation.id);
    if (!relay) {
      const started: Relay = { listeners: new Set(), stop: new AbortController() };
      relay = started;
      this.#relays.set(conversation.id, started);
      void this.#follow(conversation, started);
    }
    relay.listeners.add(listener);
    const current = relay;
    return () => {
      current.listeners.delete(listener);
      if (current.listeners.size > 0) return;
      current.stop.abort();
      if (this.#relays.get(conversation.id) === current) this.#relays.delete(conversation.id);
    };
  }

  /** How many conversations are followed now. */
  get size(): number {
    return this.#relays.size;
  }

  close(): void {
    for (const relay of this.#relays.values()) relay.stop.abort();
    this.#relays.clear();
  }

  async #follow(conversation: AppConversation, relay: Relay): Promise<void> {
    const { signal } = relay.stop;
    const { user_id: userId, id } = conversation;
    while (!signal.aborted) {
      try {
        // Looked up at each attempt: the conversation may have moved to another sandbox, which may have resumed.
        const current = await this.deps.conversations.get(userId, id);
        const sandbox = current?.sandbox_id ? await this.deps.sandboxes.get(userId, current.sandbox_id) : undefined;
        const source = sandbox && agentSourceOf(sandbox);
        if (source && !signal.aborted) {
          const events = agentClientOf(source).followEvents(id, {
            stream: true,
            signal,
            reconnect: { maxAttempts: 2 },
            onStream: (frame) => {
              const text = JSON.stringify(frame);
              for (const listener of relay.listeners) listener(text);
            },
          });
          // The events are the store's business: this socket is followed for its stream frames only.
          for await (const _ of events);
        }
      } catch {
        // The sandbox stopped or refused: look again after a pause.
      }
      await pause(RETRY_MS, signal);
    }
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
