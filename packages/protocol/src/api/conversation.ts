import { type Static, Type } from '@sinclair/typebox';
import { userMessageFields } from '../content.ts';
import {
  defaultTag,
  kindShape,
  namedEnum,
  nullable,
  openObject,
  ref,
  strictObject,
  stringEnum,
  taggedUnion,
  withDefault,
} from '../schema/builders.ts';
import { NOT_BLANK } from '../schema/fields.ts';
import {
  ConfirmationPolicy,
  ConfirmationTimeoutAction,
  ConfirmationTimeoutSeconds,
  SecurityAnalyzer,
} from './control.ts';
import { HookConfig } from './hooks.ts';
import { LLMConfig } from './llm.ts';
import { MCPConfig } from './mcp.ts';
import { MetricsSnapshot } from './metrics.ts';
import { PluginSource, ResolvedPlugin } from './plugins.ts';
import { SecretValue } from './secret-source.ts';
import { AgentContext } from './skills.ts';

/** The conversation resource of the agent server: requests to start and change one, and what it returns. */

export const ConversationExecutionStatus = namedEnum(
  'ConversationExecutionStatus',
  'Where the conversation is in its life.',
  ['idle', 'running', 'paused', 'waiting_for_confirmation', 'finished', 'error', 'stuck', 'deleting'],
);
export type ConversationExecutionStatus = Static<typeof ConversationExecutionStatus>;

export const ToolSpec = strictObject('ToolSpec', 'A tool to give the agent.', {
  name: Type.String({ minLength: 1, description: 'Registry name, for example `terminal` or `browser_tool_set`.' }),
  params: withDefault(openObject(), {}),
});
export type ToolSpec = Static<typeof ToolSpec>;

/** The LLM of a helper of the agent (its condenser, its critic): by default the agent's own, under `usageId`. */
function helperLlm(does: string, usageId: string) {
  const description = `The LLM that ${does}; default: the agent's LLM with \`usage_id\` \`${usageId}\`.`;
  return Type.Optional(nullable(ref(LLMConfig), { description }));
}

export const LLMSummarizingCondenser = kindShape(
  'LLMSummarizingCondenser',
  'Replaces the older middle of the history the LLM sees with an LLM-written summary (a `Condensation` event).',
  {
    llm: helperLlm('writes the summaries', 'condenser'),
    max_size: withDefault(
      Type.Integer({ minimum: 4, description: 'Condense when the LLM view holds more events than this.' }),
      120,
    ),
    keep_first: withDefault(
      Type.Integer({
        minimum: 0,
        description:
          'Events at the head of the view that are never forgotten (system prompt, first user message); must be less than max_size // 2 - 1.',
      }),
      4,
    ),
    max_tokens: Type.Optional(
      nullable(
        Type.Integer({
          minimum: 1,
          description: 'Also condense when the view is estimated (4 characters per token) to exceed this many tokens.',
        }),
      ),
    ),
  },
);
export type LLMSummarizingCondenser = Static<typeof LLMSummarizingCondenser>;

export const NoOpCondenser = kindShape('NoOpCondenser', 'No condensation (as no condenser).', {});

export const CondenserSpec = taggedUnion('CondenserSpec', 'How the history the LLM sees is kept short.', 'kind', [
  LLMSummarizingCondenser,
  NoOpCondenser,
]);
export type CondenserSpec = Static<typeof CondenserSpec>;

export const LLMCritic = kindShape(
  'LLMCritic',
  "An LLM that judges the agent's tool calls and answers before they are stored and sets their `critic_result` (score 0..1 and a message). A failed judgement leaves `critic_result` absent and never fails the run.",
  {
    llm: helperLlm('judges the agent', 'critic'),
    evaluate: withDefault(
      stringEnum(['actions', 'messages', 'all'], {
        description:
          "What is judged: `actions` (each LLM response with tool calls, `finish` included: one judgement per response, set on each of its ActionEvents), `messages` (the agent's text answers), or `all`.",
      }),
      'all',
    ),
    instructions: Type.Optional(
      nullable(Type.String({ description: 'Extra instructions for the critic (what to look for, how to score).' })),
    ),
  },
);
export type LLMCritic = Static<typeof LLMCritic>;

export const CriticSpec = taggedUnion(
  'CriticSpec',
  "Judges the agent's actions and messages (`critic_result`).",
  'kind',
  [LLMCritic],
);
export type CriticSpec = Static<typeof CriticSpec>;

export const AgentSpec = strictObject('AgentSpec', 'The agent: its LLM and its tools.', {
  kind: defaultTag('Agent'),
  llm: ref(LLMConfig),
  tools: withDefault(Type.Array(ref(ToolSpec)), []),
  mcp_config: withDefault(
    ref(MCPConfig, {
      description: 'MCP servers by name (flat, or in `{"mcpServers": {...}}`); their tools join the agent\'s.',
    }),
    {},
  ),
  filter_tools_regex: Type.Optional(nullable(Type.String())),
  include_default_tools: withDefault(Type.Array(Type.String()), ['FinishTool', 'ThinkTool']),
  agent_context: Type.Optional(
    nullable(ref(AgentContext), {
      description: 'Skills, skill repositories and marketplaces; null or absent: defaults.',
    }),
  ),
  system_prompt: Type.Optional(nullable(Type.String())),
  system_prompt_kwargs: withDefault(openObject(), {}),
  condenser: Type.Optional(
    nullable(ref(CondenserSpec), { description: 'Condenses the history the LLM sees; null or absent: none.' }),
  ),
  critic: Type.Optional(
    nullable(ref(CriticSpec), { description: "Judges the agent's actions and messages; null or absent: none." }),
  ),
  tool_concurrency_limit: withDefault(Type.Integer({ minimum: 1 }), 1),
});
export type AgentSpec = Static<typeof AgentSpec>;

export const LocalWorkspace = strictObject('LocalWorkspace', 'A directory on the server.', {
  working_dir: Type.String({ minLength: 1, description: 'Directory the agent works in.' }),
  kind: defaultTag('LocalWorkspace'),
});

/** The fields of a message sent to a conversation: the user's message, and whether the agent runs after it. */
export const sendMessageFields = (runDescription: string, runByDefault: boolean) => ({
  ...userMessageFields('sent'),
  run: withDefault(Type.Boolean({ description: runDescription }), runByDefault),
});

export const SendMessageRequest = strictObject(
  'SendMessageRequest',
  'A user message.',
  sendMessageFields('Start a run after appending the message.', false),
);
export type SendMessageRequest = Static<typeof SendMessageRequest>;

const tagKey = Type.String({ pattern: '^[a-z0-9]+$', maxLength: 64 });
const Tags = Type.Unsafe<Record<string, string>>({
  type: 'object',
  propertyNames: tagKey,
  additionalProperties: { type: 'string', maxLength: 256 },
  description: 'Free-form labels: lowercase alphanumeric keys, string values.',
});

export const Secrets = Type.Unsafe<Record<string, Static<typeof SecretValue>>>({
  type: 'object',
  additionalProperties: SecretValue,
  description:
    'Secrets by name: a string, `{"value": ...}`, or `{"kind": "LookupSecret", "url": ..., "headers": {...}}` (read ' +
    'from the URL whenever a tool needs it). Never returned in clear.',
});

export const StartConversationRequest = strictObject('StartConversationRequest', 'Start a conversation.', {
  agent: Type.Optional(
    ref(AgentSpec, {
      description: "The agent; when omitted, the server's default agent (its BOSUN_LLM_* model) is used.",
    }),
  ),
  workspace: ref(LocalWorkspace),
  conversation_id: Type.Optional(nullable(Type.String({ format: 'uuid' }))),
  confirmation_policy: withDefault(ref(ConfirmationPolicy), { kind: 'NeverConfirm' }),
  confirmation_timeout_seconds: Type.Optional(ConfirmationTimeoutSeconds),
  on_confirmation_timeout: Type.Optional(ConfirmationTimeoutAction),
  security_analyzer: Type.Optional(nullable(ref(SecurityAnalyzer))),
  initial_message: Type.Optional(nullable(ref(SendMessageRequest))),
  max_iterations: withDefault(Type.Integer({ minimum: 1 }), 500),
  stuck_detection: withDefault(Type.Boolean(), true),
  secrets: withDefault(Secrets, {}),
  plugins: Type.Optional(nullable(Type.Array(ref(PluginSource)))),
  hook_config: Type.Optional(nullable(ref(HookConfig))),
  tags: withDefault(Tags, {}),
  title: Type.Optional(nullable(Type.String({ minLength: 1, maxLength: 200 }))),
  autotitle: withDefault(Type.Boolean(), true),
});
export type StartConversationRequest = Static<typeof StartConversationRequest>;
/** A start request whose agent is settled (given, or the server's default). */
export type ResolvedStartRequest = StartConversationRequest & { agent: AgentSpec };

export const UpdateConversationRequest = strictObject(
  'UpdateConversationRequest',
  'Change the title or replace the tags.',
  {
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    tags: Type.Optional(Tags),
  },
);
export type UpdateConversationRequest = Static<typeof UpdateConversationRequest>;

export const ConversationInfo = strictObject('ConversationInfo', 'A conversation.', {
  id: Type.String({ format: 'uuid' }),
  title: nullable(Type.String()),
  agent: ref(AgentSpec),
  workspace: ref(LocalWorkspace),
  execution_status: ref(ConversationExecutionStatus),
  confirmation_policy: ref(ConfirmationPolicy),
  confirmation_timeout_seconds: ConfirmationTimeoutSeconds,
  on_confirmation_timeout: ConfirmationTimeoutAction,
  security_analyzer: nullable(ref(SecurityAnalyzer)),
  max_iterations: Type.Integer(),
  stuck_detection: Type.Boolean(),
  initial_message: nullable(ref(SendMessageRequest)),
  plugins: nullable(Type.Array(ref(PluginSource))),
  resolved_plugins: Type.Array(ref(ResolvedPlugin), {
    description:
      'The plugins loaded (auto-loaded marketplace plugins, then `plugins`), each with the commit it was loaded ' +
      'from and its problems; empty until the agent is first built.',
  }),
  hook_config: nullable(ref(HookConfig)),
  secret_registry: openObject({ description: 'Secret names; values are always `**********`.' }),
  tags: Tags,
  stats: openObject({ description: 'Usage by `usage_id`.' }),
  activated_knowledge_skills: Type.Array(Type.String()),
  blocked_actions: openObject(),
  blocked_messages: openObject(),
  last_user_message_id: nullable(Type.String()),
  event_count: Type.Integer({ minimum: 0, description: 'How many events the log holds.' }),
  metrics: ref(MetricsSnapshot),
  agent_state: openObject({ description: "The agent's scratch state (OpenHands'); Bosun's agent keeps none: `{}`." }),
  forked_from_conversation_id: nullable(Type.String({ description: 'The conversation this one was forked from.' })),
  forked_from_event_id: nullable(Type.String({ description: 'The last event copied from it.' })),
  persistence_dir: Type.String({
    description:
      "Where the conversation's files are (tool outputs, task list, recordings), relative to the data directory.",
  }),
  created_at: Type.String({ description: 'ISO-8601, UTC.' }),
  updated_at: Type.String({ description: 'ISO-8601, UTC.' }),
});
export type ConversationInfo = Static<typeof ConversationInfo>;

export const Success = strictObject('Success', 'The request was done.', { success: Type.Boolean() });
