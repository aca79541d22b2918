import { Type } from '@sinclair/typebox';
import { nullable, withDefault } from '../schema/builders.ts';
import { eventShape } from './common.ts';

/** Events about the conversation itself: state, errors, pauses, condensation and LLM telemetry. */

export const ConversationStateUpdateEvent = eventShape(
  'ConversationStateUpdateEvent',
  { default: 'environment' },
  {
    key: Type.Optional(Type.String({ description: 'The state field that changed, or `full_state`.' })),
    value: Type.Optional(Type.Unknown({ description: 'The new value (the whole state for `full_state`).' })),
  },
  'A change of the conversation state.',
);

export const ConversationErrorEvent = eventShape(
  'ConversationErrorEvent',
  'required',
  {
    code: Type.String({ description: 'Error code, typically a type.' }),
    detail: Type.String({ description: 'Details about the error.' }),
  },
  'A conversation-level failure; it is not sent to the LLM.',
);

export const PauseEvent = eventShape('PauseEvent', { default: 'user' }, {}, 'The user paused the agent.');

export const CondensationRequest = eventShape(
  'CondensationRequest',
  { default: 'environment' },
  {},
  'A request to condense the history.',
);

export const Condensation = eventShape(
  'Condensation',
  { default: 'environment' },
  {
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
  },
  'The history was condensed.',
);

export const CondensationSummaryEvent = eventShape(
  'CondensationSummaryEvent',
  { default: 'environment' },
  { summary: Type.String() },
  'A summary produced by a condenser.',
);

export const LLMCompletionLogEvent = eventShape(
  'LLMCompletionLogEvent',
  { default: 'environment' },
  {
    filename: Type.String({ description: 'Intended log file name, relative to a log directory.' }),
    log_data: Type.String({ description: 'The log data, JSON-encoded.' }),
    model_name: withDefault(Type.String(), 'unknown'),
    usage_id: withDefault(Type.String({ description: 'The LLM usage id that produced the log.' }), 'default'),
  },
  'An LLM completion log.',
);

export const TokenEvent = eventShape(
  'TokenEvent',
  'required',
  {
    prompt_token_ids: Type.Array(Type.Integer()),
    response_token_ids: Type.Array(Type.Integer()),
  },
  'The token ids of an LLM interaction.',
);
