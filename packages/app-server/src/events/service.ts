import type { Cache } from '../cache/index.ts';
import type { Repositories } from '../data/index.ts';
import type { Sandbox, Sandboxes } from '../sandboxes/index.ts';
import { EventCatchUp } from './catch-up.ts';
import { EventIntake, type EventsLogger } from './intake.ts';

export interface ConversationEventsOptions {
  repositories: Pick<Repositories, 'events' | 'conversations'>;
  sandboxes: Sandboxes;
  /** Carries new events to every replica's sockets. */
  cache: Cache;
  log: EventsLogger;
  /** How often running sandboxes' conversations are swept for missing events (0: never). */
  sweepIntervalMs: number;
}

/** Every replica sweeps every few seconds by default: a search per conversation that finds nothing is cheap. */
export const DEFAULT_EVENT_SWEEP_MS = 5_000;

/**
 * The app's store of conversation events and what fills it: webhooks (`intake.receive`), pulls from the agent
 * servers (`catchUp`) and the pub/sub its sockets follow.
 */
export class ConversationEvents {
  readonly intake: EventIntake;
  readonly catchUp: EventCatchUp;

  constructor(readonly options: ConversationEventsOptions) {
    const { repositories, cache, log } = options;
    this.intake = new EventIntake(repositories.events, cache, log);
    this.catchUp = new EventCatchUp({
      repository: repositories.events,
      sandboxes: options.sandboxes,
      intake: this.intake,
      log,
      sweepIntervalMs: options.sweepIntervalMs,
    });
    this.catchUp.start();
  }

  get repository() {
    return this.options.repositories.events;
  }

  get cache(): Cache {
    return this.options.cache;
  }

  /** To be told when a sandbox becomes RUNNING (started or resumed): its conversations are caught up. */
  readonly sandboxRunning = (sandbox: Sandbox): void => {
    void this.catchUp.sandboxRunning(sandbox);
  };

  /** Stops the sweep and waits for the writes under way. */
  async close(): Promise<void> {
    await this.catchUp.close();
    await this.intake.idle();
  }
}

/**
 * What every sandbox is told of the app: where to post its events and conversations, and the browser origin.
 * Nothing while the app has no URL yet (it does not listen): a sandbox then starts without webhooks, and the app
 * catches up by pulling.
 */
export function webhookEnvironment(publicUrl: string): Record<string, string> {
  let origin: string;
  try {
    origin = new URL(publicUrl).origin;
  } catch {
    return {};
  }
  return {
    BOSUN_WEBHOOK_BASE_URL: `${publicUrl.replace(/\/+$/, '')}/api/v1/webhooks`,
    BOSUN_ALLOW_CORS_ORIGINS: origin,
  };
}

/** `webhookEnvironment` of the URL `publicUrl()` answers, which throws until the server listens. */
export function webhookEnvironmentOf(publicUrl: () => string): () => Record<string, string> {
  return () => {
    try {
      return webhookEnvironment(publicUrl());
    } catch {
      return {};
    }
  };
}
