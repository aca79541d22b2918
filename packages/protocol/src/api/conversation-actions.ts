import { type Static, Type } from '@sinclair/typebox';
import { nullable, ref, strictObject, withDefault } from '../schema/builders.ts';
import { LLMConfig } from './llm.ts';

/** Request and response bodies of the routes that act on a running conversation (OpenHands' shapes). */

const tagKey = Type.String({ pattern: '^[a-z0-9]+$', maxLength: 64 });

export const ForkConversationRequest = strictObject(
  'ForkConversationRequest',
  'Fork a conversation: a new idle conversation with a copy of its events and configuration.',
  {
    id: Type.Optional(nullable(Type.String({ format: 'uuid', description: 'The id of the fork (default: new).' }))),
    title: Type.Optional(nullable(Type.String({ minLength: 1, maxLength: 200 }))),
    tags: Type.Optional(
      nullable(
        Type.Unsafe<Record<string, string>>({
          type: 'object',
          propertyNames: tagKey,
          additionalProperties: { type: 'string', maxLength: 256 },
          description: "The fork's tags (default: the source's).",
        }),
      ),
    ),
    reset_metrics: withDefault(
      Type.Boolean({ description: 'Start the usage and cost of the fork from zero (else copy the source’s).' }),
      true,
    ),
    from_event_id: Type.Optional(
      nullable(Type.String({ description: 'Copy the events up to this one (included); default: all of them.' })),
    ),
  },
);
export type ForkConversationRequest = Static<typeof ForkConversationRequest>;

export const SwitchLLMRequest = strictObject('SwitchLLMRequest', "Replace the agent's LLM.", {
  llm: ref(LLMConfig, {
    description:
      'The new LLM of the agent. A secret given as `**********` (as responses show it) keeps the current value.',
  }),
});
export type SwitchLLMRequest = Static<typeof SwitchLLMRequest>;

export const LoadPluginRequest = strictObject('LoadPluginRequest', 'Load a plugin into the conversation.', {
  plugin_ref: Type.String({
    pattern: '^[^@\\s]+@[^@\\s]+$',
    description: '`<plugin>@<marketplace>`: a plugin of a marketplace registered in the agent context.',
  }),
});
export type LoadPluginRequest = Static<typeof LoadPluginRequest>;

export const AgentFinalResponse = strictObject('AgentFinalResponse', "The agent's final answer.", {
  response: Type.String({
    description: "The `finish` message of the agent, else its last message's text, else an empty string.",
  }),
});
export type AgentFinalResponse = Static<typeof AgentFinalResponse>;
