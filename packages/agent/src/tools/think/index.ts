import type { ActionOf, ObservationOf } from '@bosun/protocol';
import { textObservation } from '../observations.ts';
import { READS_ONLY, builtInTool } from '../shared/definition.ts';
import type { Tool } from '../tool.ts';

type ThinkAction = ActionOf<'ThinkAction'>;
type ThinkObservation = ObservationOf<'ThinkObservation'>;

const DESCRIPTION = `Think out loud. The thought is only recorded: nothing is looked up, run or changed. Use it when a step needs careful reasoning before you act.

Good moments to use it:
1. You found the likely cause of a bug: list a few ways to fix it and weigh which is simplest and safest.
2. Tests failed: reason about what the failures mean and how to address them.
3. Before a large refactoring: compare approaches and their trade-offs.
4. Before building a feature: work out the design and the order of the changes.
5. While debugging something tangled: write down the hypotheses and how to check each one.

The thought makes your reasoning visible to the user; it has no other effect.`;

export const THOUGHT_LOGGED = 'Your thought has been logged.';

/** The `think` tool: logs a thought; changes nothing. */
export function createThinkTool(): Tool<ThinkAction, ThinkObservation> {
  return builtInTool('think', 'Think', {
    description: DESCRIPTION,
    hints: READS_ONLY,
    execute: async () => textObservation('ThinkObservation', THOUGHT_LOGGED),
  });
}
