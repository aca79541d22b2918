import type { NewEvent } from '@bosun/protocol';
import type { ConversationSkills } from '@bosun/sources';
import { PLUGIN_ERROR_CODE } from './plugins.ts';

/** Seconds plugins, skills and MCP servers may take to load when a conversation's agent is built. */
export const DEFAULT_SETUP_TIMEOUT_MS = 60_000;

const LATE = Symbol('late');

/**
 * The one deadline of building a conversation's agent: plugins and skills are loaded, and MCP servers started,
 * within it; past it the conversation starts without what did not load, and says so. What was left behind goes
 * on unobserved and records nothing (`expired`): a later load of the conversation tries it again.
 */
export class SetupDeadline {
  private readonly endsAt: number;
  private late = false;

  constructor(readonly ms: number) {
    this.endsAt = Date.now() + ms;
  }

  /** True once a step was given up: what it would record is left unrecorded. */
  get expired(): boolean {
    return this.late;
  }

  remainingMs(): number {
    return Math.max(0, this.endsAt - Date.now());
  }

  /** `work`'s value, or `fallback()` once the deadline has passed first. */
  async race<T>(work: Promise<T>, fallback: () => T): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<typeof LATE>((resolve) => {
      timer = setTimeout(() => resolve(LATE), this.remainingMs());
    });
    work.catch(() => undefined); // a step that fails after the deadline is nobody's concern
    try {
      const result = await Promise.race([work, deadline]);
      if (result !== LATE) return result;
      this.late = true;
      return fallback();
    } finally {
      clearTimeout(timer);
    }
  }

  /** Why something is missing, for people. */
  reason(what: string): string {
    return `${what} did not load within ${this.ms / 1000} s (conversation_setup_timeout): the conversation started without them`;
  }
}

/** The plugins of a conversation whose plugins did not load in time: none, and an error event saying so. */
export function latePlugins(deadline: SetupDeadline) {
  const errorEvent: NewEvent = {
    kind: 'ConversationErrorEvent',
    source: 'environment',
    code: PLUGIN_ERROR_CODE,
    detail: deadline.reason('Plugins'),
  };
  return { loaded: [], fromMarketplaces: [], resolved: [], errorEvent };
}

/** The skills of a conversation whose skills did not load in time: none, and a problem saying so. */
export function lateSkills(deadline: SetupDeadline): ConversationSkills {
  return {
    skills: [],
    repositories: [],
    sources: {},
    problems: [{ file: 'skills', field: null, severity: 'error', message: deadline.reason('Skills'), skipped: true }],
  };
}
