import { Type } from '@sinclair/typebox';
import {
  AnyThinkingBlock,
  CriticResult,
  Message,
  MessageToolCall,
  ReasoningItemModel,
  SecurityRisk,
  TextContent,
} from '../content.ts';
import { nullable, ref, stringEnum, withDefault } from '../schema/builders.ts';
import { Action, Observation, ToolDefinition } from '../tools/index.ts';
import { eventShape } from './common.ts';

/** Events that are part of the conversation the LLM sees: prompts, messages, tool calls and their results. */

export const SystemPromptEvent = eventShape(
  'SystemPromptEvent',
  { default: 'agent' },
  'The system prompt and the tools of the agent.',
  {
    system_prompt: ref(TextContent),
    tools: Type.Array(ref(ToolDefinition), { description: 'The tools available to the agent.' }),
    dynamic_context: Type.Optional(
      nullable(ref(TextContent), {
        description: 'Per-conversation context, sent as a second content block of the system message.',
      }),
    ),
  },
);

export const MessageEvent = eventShape(
  'MessageEvent',
  'required',
  'A message from the agent or the user that is not a tool call.',
  {
    llm_message: ref(Message),
    llm_response_id: Type.Optional(nullable(Type.String({ description: 'Null when the source is not `agent`.' }))),
    activated_skills: withDefault(Type.Array(Type.String(), { description: 'Names of activated skills.' }), []),
    extended_content: withDefault(
      Type.Array(ref(TextContent), { description: 'Content added by the agent context (for example skills).' }),
      [],
    ),
    sender: Type.Optional(nullable(Type.String({ description: 'Who sent it, in multi-agent setups.' }))),
    critic_result: Type.Optional(nullable(ref(CriticResult))),
  },
);

export const ActionEvent = eventShape('ActionEvent', { default: 'agent' }, 'A tool call by the agent.', {
  thought: Type.Array(ref(TextContent), { description: 'What the agent said before the action.' }),
  reasoning_content: Type.Optional(nullable(Type.String())),
  thinking_blocks: withDefault(Type.Array(ref(AnyThinkingBlock)), []),
  responses_reasoning_item: Type.Optional(nullable(ref(ReasoningItemModel))),
  action: Type.Optional(nullable(ref(Action), { description: 'Null when the tool call could not be executed.' })),
  tool_name: Type.String(),
  tool_call_id: Type.String({ description: 'The id the LLM API gave the call.' }),
  tool_call: ref(MessageToolCall),
  llm_response_id: Type.String({ description: 'Groups the actions of one LLM response (parallel calls).' }),
  security_risk: withDefault(ref(SecurityRisk), 'UNKNOWN'),
  critic_result: Type.Optional(nullable(ref(CriticResult))),
  summary: Type.Optional(nullable(Type.String({ description: 'What the action does, in about 10 words.' }))),
});

export const ObservationEvent = eventShape(
  'ObservationEvent',
  { default: 'environment' },
  'The result of a tool call.',
  {
    tool_name: Type.String(),
    tool_call_id: Type.String(),
    observation: ref(Observation),
    action_id: Type.String({ description: 'The id of the ActionEvent this answers.' }),
  },
);

export const UserRejectObservation = eventShape(
  'UserRejectObservation',
  { default: 'environment' },
  'An action was rejected and not executed.',
  {
    tool_name: Type.String(),
    tool_call_id: Type.String(),
    rejection_reason: withDefault(Type.String(), 'User rejected the action'),
    rejection_source: withDefault(
      stringEnum(['user', 'hook'], {
        description: '`user`: rejected in confirmation mode; `hook`: a PreToolUse hook blocked it.',
      }),
      'user',
    ),
    action_id: Type.String(),
  },
);

export const AgentErrorEvent = eventShape(
  'AgentErrorEvent',
  { default: 'agent' },
  'An error of the agent scaffold tied to a tool call; the conversation goes on.',
  {
    tool_name: Type.String(),
    tool_call_id: Type.String(),
    error: Type.String({ description: 'The error message.' }),
  },
);
