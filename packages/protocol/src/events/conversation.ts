import { Type } from '@sinclair/typebox';
import { nullable, withDefault } from '../schema/builders.ts';
import { eventShape } from './common.ts';

/** Events about the conversation itself: state, errors, pauses, condensation and LLM telemetry. */

export const ConversationStateUpdateEvent = eventShape(
  'ConversationStateUpdateEvent',
  { default: 'environment' },
  'A change of the conversation state.',
  {
    key: Type.Optional(Type.String({ description: 'The state field that changed, or `full_state`.' })),
    value: Type.Optional(Type.Unknown({ description: 'The new value (the whole state for `full_state`).' })),
  },
);

export const ConversationErrorEvent = eventShape(
  'ConversationErrorEvent',
  'required',
  'A conversation-level failure; it is not sent to the LLM.',
  {
    code: Type.String({ description: 'Error code, typically a type.' }),
    detail: Type.String({ description: 'Details about the error.' }),
  },
);

export const PauseEvent = eventShape('PauseEvent', { default: 'user' }, 'The user paused the agent.', {});

export const CondensationRequest = eventShape(
  'CondensationRequest',
  { default: 'environment' },
  'A request to condense the history.',
  {},
);

export const Condensation = eventShape('Condensation', { default: 'environment' }, 'The history was condensed.', {
  forgotten_event_ids: withDefault(
    Type.Array(Type.String(), { description: 'Events removed from the view given to the LLM.' }),
    [],
  ),
  summary: Type.Optional(nullable(Type.String(), { description: 'Summary of what was forgotten.' })),
  summary_offset: Type.Optional(
    nullable(Type.Integer({ minimum: 0 }), {
      description: 'Where in the resulting view the summary goes; absent: the summary is not inserted.',
    }),
  ),
  llm_response_id: Type.String({ description: 'The LLM response that produced the condensation.' }),
});

export const CondensationSummaryEvent = eventShape(
  'CondensationSummaryEvent',
  { default: 'environment' },
  'A summary produced by a condenser.',
  { summary: Type.String() },
);

export const LLMCompletionLogEvent = eventShape(
  'LLMCompletionLogEvent',
  { default: 'environment' },
  'An LLM completion log.',
  {
    filename: Type.String({ description: 'Intended log file name, relative to a log directory.' }),
    log_data: Type.String({ description: 'The log data, JSON-encoded.' }),
    model_name: withDefault(Type.String(), 'unknown'),
    usage_id: withDefault(Type.String({ description: 'The LLM usage id that produced the log.' }), 'default'),
  },
);

export const TokenEvent = eventShape('TokenEvent', 'required', 'The token ids of an LLM interaction.', {
  prompt_token_ids: Type.Array(Type.Integer()),
  response_token_ids: Type.Array(Type.Integer()),
});
