import { type Script, type Turn, type TurnWhen, turnTimes } from './script.ts';

/** What a turn's `when` is matched against, extracted from the request in its API's format. */
export interface TurnRequest {
  lastUserText?: string;
  lastToolResultText?: string;
}

export function whenMatches(when: TurnWhen | undefined, request: TurnRequest): boolean {
  if (!when) return true;
  if (when.last_user_message_contains !== undefined) {
    if (!request.lastUserText?.includes(when.last_user_message_contains)) return false;
  }
  if (when.last_tool_result_contains !== undefined) {
    if (!request.lastToolResultText?.includes(when.last_tool_result_contains)) return false;
  }
  return true;
}

/**
 * The script's turns and how often each has answered. A request takes the first turn, in script order,
 * that still has answers left and whose `when` matches.
 */
export class TurnQueue {
  #script: Script;
  #uses: number[];

  constructor(script: Script) {
    this.#script = script;
    this.#uses = script.turns.map(() => 0);
  }

  get script(): Script {
    return this.#script;
  }

  replace(script: Script): void {
    this.#script = script;
    this.reset();
  }

  reset(): void {
    this.#uses = this.#script.turns.map(() => 0);
  }

  take(request: TurnRequest): { index: number; turn: Turn } | undefined {
    const turns = this.#script.turns;
    for (let index = 0; index < turns.length; index++) {
      const turn = turns[index]!;
      if (this.#uses[index]! < turnTimes(turn) && whenMatches(turn.when, request)) {
        this.#uses[index]!++;
        return { index, turn };
      }
    }
    const lastIndex = turns.length - 1;
    const last = turns[lastIndex];
    if (
      this.#script.repeat_last &&
      last &&
      this.#uses[lastIndex]! >= turnTimes(last) &&
      whenMatches(last.when, request)
    ) {
      this.#uses[lastIndex]!++;
      return { index: lastIndex, turn: last };
    }
    return undefined;
  }

  /** The turns with answers left, for the no-match message. */
  unused(): { index: number; when?: TurnWhen }[] {
    return this.#script.turns.flatMap((turn, index) =>
      this.#uses[index]! < turnTimes(turn) ? [{ index, ...(turn.when ? { when: turn.when } : {}) }] : [],
    );
  }
}
