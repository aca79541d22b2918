import { type Static, Type } from '@sinclair/typebox';
import { SendMessageRequest } from '../api/conversation.ts';
import { namedEnum, nullable, openObject, ref, strictObject, stringEnum } from '../schema/builders.ts';
import { NOT_BLANK } from '../schema/fields.ts';
import { ProviderType, pageOf, timestamps } from './common.ts';
import { SuggestedTask } from './git-browse.ts';
import { MAX_LAUNCH_PLUGINS } from './launch-references.ts';
import { PluginTrustSource } from './plugin-directory.ts';

// Conversations through the application, as OpenHands' V1 API has them: a start answers a start task at once,
// the conversation (in a sandbox's agent server, under the same id) appears once the task is READY.

/** A conversation id: a UUID, dashed or as 32 hex digits (answers always dash it). */
export const conversationIdPattern =
  '^([0-9a-fA-F]{32}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$';
const conversationId = (description: string) => Type.String({ pattern: conversationIdPattern, description });

export const START_TASK_STATUSES = [
  'WORKING',
  'WAITING_FOR_SANDBOX',
  'PREPARING_REPOSITORY',
  'RUNNING_SETUP_SCRIPT',
  'SETTING_UP_GIT_HOOKS',
  'SETTING_UP_SKILLS',
  'STARTING_CONVERSATION',
  'READY',
  'ERROR',
] as const;

export const AppConversationStartTaskStatus = namedEnum(
  'AppConversationStartTaskStatus',
  'Where a start is: WORKING (accepted), WAITING_FOR_SANDBOX, PREPARING_REPOSITORY, SETTING_UP_SKILLS, ' +
    'STARTING_CONVERSATION, then READY or ERROR (`detail` says why). Bosun runs no setup script or Git hook step.',
  START_TASK_STATUSES,
);
export type AppConversationStartTaskStatus = Static<typeof AppConversationStartTaskStatus>;

export const PluginSpec = strictObject('PluginSpec', 'A plugin to load into the conversation.', {
  source: Type.String({ maxLength: 2048, pattern: NOT_BLANK, description: '`github:owner/repo` or a Git URL.' }),
  ref: Type.Optional(nullable(Type.String({ maxLength: 255, description: 'Branch, tag or commit.' }))),
  repo_path: Type.Optional(
    nullable(Type.String({ maxLength: 1024, description: 'The plugin inside the repository.' })),
  ),
  parameters: Type.Optional(
    nullable(openObject({ description: 'Values of the plugin’s parameters (appended to the first message).' })),
  ),
});
export type PluginSpec = Static<typeof PluginSpec>;

const SECRET_NAME = '^[A-Za-z_][A-Za-z0-9_]{0,127}$';

/** How OpenHands says what started a conversation (`trigger`). */
export const CONVERSATION_TRIGGERS = [
  'resolver',
  'gui',
  'suggested_task',
  'openhands_api',
  'slack',
  'microagent_management',
  'jira',
  'jira_dc',
  'linear',
  'bitbucket',
  'automation',
] as const;
export const ConversationTrigger = namedEnum(
  'ConversationTrigger',
  'What started a conversation (OpenHands’ `ConversationTrigger`): recorded and shown, not acted on.',
  CONVERSATION_TRIGGERS,
);
export type ConversationTrigger = Static<typeof ConversationTrigger>;

/**
 * The start request. Fields OpenHands' releases send that Bosun knows are each taken or refused with a 422 that
 * says so: `agent_type` `default` (`plan` refused), `suggested_task` (builds the first message), `trigger`,
 * `pr_number` and `public` (recorded on the conversation); `parent_conversation_id` is refused when set, and
 * `processors` other than `SetTitleCallbackProcessor`. Other unknown fields (`observability_*`,
 * `agent_profile_id`...) are ignored.
 */
const startRequest = Type.Object(
  {
    sandbox_id: Type.Optional(
      nullable(
        Type.String({ pattern: '^[A-Za-z0-9_-]{1,100}$', description: 'One of the caller’s sandboxes to reuse.' }),
      ),
    ),
    conversation_id: Type.Optional(nullable(conversationId('The id to give the conversation (default: a new UUID).'))),
    initial_message: Type.Optional(nullable(ref(SendMessageRequest, { description: 'The agent runs it at once.' }))),
    system_message_suffix: Type.Optional(nullable(Type.String({ maxLength: 100_000 }))),
    llm_model: Type.Optional(
      nullable(Type.String({ minLength: 1, maxLength: 255, description: 'Overrides the settings’.' })),
    ),
    selected_repository: Type.Optional(
      nullable(
        Type.String({
          pattern: '^(?:(?!\\.\\.?/)[A-Za-z0-9_.-]+/)+(?!\\.\\.?$)[A-Za-z0-9_.-]+$',
          maxLength: 512,
          description: '`owner/repo`, cloned into the sandbox’s workspace.',
        }),
      ),
    ),
    selected_branch: Type.Optional(
      nullable(Type.String({ pattern: '^[^\\s~^:?*\\[\\\\-][^\\s~^:?*\\[\\\\]*$', maxLength: 255 })),
    ),
    git_provider: Type.Optional(nullable(ref(ProviderType, { description: 'Default: github.' }))),
    title: Type.Optional(
      nullable(
        Type.String({
          maxLength: 100_000,
          description: 'The title (its first 200 characters; OpenHands’ web client sends its instructions here).',
        }),
      ),
    ),
    plugins: Type.Optional(nullable(Type.Array(ref(PluginSpec), { maxItems: MAX_LAUNCH_PLUGINS }))),
    confirmed_plugin_sources: Type.Optional(
      nullable(
        Type.Array(ref(PluginTrustSource), {
          maxItems: MAX_LAUNCH_PLUGINS,
          description:
            'Bosun: the plugin sources (at their commits) the caller confirms trust in with this start; a start ' +
            'with plugins from sources not confirmed, now or before, is a 409 naming them.',
        }),
      ),
    ),
    agent_type: Type.Optional(
      nullable(stringEnum(['default', 'plan'], { description: '`default` only: Bosun has no planning agent.' })),
    ),
    suggested_task: Type.Optional(
      nullable(
        ref(SuggestedTask, {
          description:
            'Builds the first message from the task (as OpenHands does); not with `initial_message`. Types ' +
            'MERGE_CONFLICTS, FAILING_CHECKS, UNRESOLVED_COMMENTS and OPEN_ISSUE.',
        }),
      ),
    ),
    trigger: Type.Optional(nullable(ref(ConversationTrigger))),
    pr_number: Type.Optional(
      nullable(
        Type.Array(Type.Integer({ minimum: 1 }), {
          maxItems: 100,
          description: 'The pull (merge) requests the conversation works on; recorded on it.',
        }),
      ),
    ),
    public: Type.Optional(nullable(Type.Boolean({ description: 'Share it read-only from the start (default: not).' }))),
    parent_conversation_id: Type.Optional(
      nullable(conversationId('Refused when set: Bosun has no sub-conversations (422).')),
    ),
    processors: Type.Optional(
      nullable(
        Type.Array(openObject(), {
          maxItems: 20,
          description:
            'OpenHands’ event callback processors: only `SetTitleCallbackProcessor` (Bosun titles every ' +
            'conversation anyway); any other kind is refused (422).',
        }),
      ),
    ),
    secrets: Type.Optional(
      nullable(
        Type.Record(Type.String({ pattern: SECRET_NAME }), Type.String({ maxLength: 65_536 }), {
          additionalProperties: false,
          description: 'Given to the conversation over the user’s secrets (these win); echoed masked.',
        }),
      ),
    ),
  },
  {
    $id: 'AppConversationStartRequest',
    additionalProperties: true,
    description:
      'Start a conversation in a sandbox (fields of other OpenHands releases that Bosun does not know are ignored).',
  },
);
export const AppConversationStartRequest = startRequest as typeof startRequest & { $id: string };
export type AppConversationStartRequest = Static<typeof AppConversationStartRequest>;

export const AppConversationStartTask = strictObject('AppConversationStartTask', 'A conversation being started.', {
  id: Type.String({ format: 'uuid' }),
  created_by_user_id: nullable(Type.String()),
  status: ref(AppConversationStartTaskStatus),
  detail: nullable(Type.String({ description: 'Why it is ERROR, for a person to act on.' })),
  app_conversation_id: nullable(Type.String({ description: 'The conversation, once READY.' })),
  sandbox_id: nullable(Type.String({ description: 'The sandbox, from WAITING_FOR_SANDBOX on.' })),
  agent_server_url: nullable(
    Type.String({ description: 'The sandbox’s agent server, from STARTING_CONVERSATION on.' }),
  ),
  request: ref(AppConversationStartRequest, { description: 'The request, its secrets masked.' }),
  problems: Type.Array(Type.String(), {
    description: 'Bosun: what went wrong without stopping the start (a plugin or skill that did not load).',
  }),
  ...timestamps(),
});
export type AppConversationStartTask = Static<typeof AppConversationStartTask>;

export const AppConversationStartTaskPage = pageOf(
  'AppConversationStartTaskPage',
  'A page of the caller’s start tasks.',
  AppConversationStartTask,
);
export type AppConversationStartTaskPage = Static<typeof AppConversationStartTaskPage>;

export const AppConversationStartTaskSortOrder = namedEnum(
  'AppConversationStartTaskSortOrder',
  'The order of start tasks.',
  ['CREATED_AT', 'CREATED_AT_DESC', 'UPDATED_AT', 'UPDATED_AT_DESC'],
);
export type AppConversationStartTaskSortOrder = Static<typeof AppConversationStartTaskSortOrder>;
