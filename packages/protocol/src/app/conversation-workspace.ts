import { type Static, Type } from '@sinclair/typebox';
import { SkillDiagnostic, skillOriginFields } from '../api/skills.ts';
import { nullable, ref, strictObject, stringEnum } from '../schema/builders.ts';

// A conversation's workspace through the application, as OpenHands' V1 API has it: a file, the Git changes,
// the skills and hooks of the conversation's agent (through its sandbox's agent server), and its export.

/** A branch, tag or commit: never an option (a leading `-`), no spaces (as the agent server takes it). */
const REVISION = { minLength: 1, maxLength: 256, pattern: '^[^-\\s][^\\s]*$' };
const WORKSPACE_PATH = { minLength: 1, maxLength: 4096 };

export const AppConversationFileQuery = Type.Object(
  {
    file_path: Type.String({
      ...WORKSPACE_PATH,
      description: 'The file: absolute, or relative to the conversation’s working directory.',
    }),
  },
  { additionalProperties: false },
);
export type AppConversationFileQuery = Static<typeof AppConversationFileQuery>;

export const AppConversationGitChangesQuery = Type.Object(
  {
    path: Type.Optional(
      Type.String({
        ...WORKSPACE_PATH,
        description:
          'A directory of the repository (relative: to the working directory; default: the working directory).',
      }),
    ),
    ref: Type.Optional(Type.String({ ...REVISION, description: 'Compare with (default HEAD).' })),
  },
  { additionalProperties: false },
);
export type AppConversationGitChangesQuery = Static<typeof AppConversationGitChangesQuery>;

export const AppConversationGitDiffQuery = Type.Object(
  {
    path: Type.String({
      ...WORKSPACE_PATH,
      description: 'A file of the repository (relative: to the conversation’s working directory).',
    }),
    ref: Type.Optional(Type.String({ ...REVISION, description: 'The original (default HEAD).' })),
  },
  { additionalProperties: false },
);
export type AppConversationGitDiffQuery = Static<typeof AppConversationGitDiffQuery>;

export const AppConversationSkill = strictObject(
  'AppConversationSkill',
  'A skill of the conversation’s agent (OpenHands’ `SkillResponse`).',
  {
    name: Type.String(),
    type: stringEnum(['repo', 'knowledge', 'agentskills'], {
      description: '`repo`: always in the system prompt; `knowledge`: triggered by keywords; `agentskills`: SKILL.md.',
    }),
    content: Type.String(),
    triggers: Type.Array(Type.String(), { description: 'The keywords (or task triggers) that bring it in.' }),
    ...skillOriginFields,
  },
);
export type AppConversationSkill = Static<typeof AppConversationSkill>;

export const ConversationSkillRepository = strictObject(
  'ConversationSkillRepository',
  'An organization’s or a user’s skills repository the conversation’s start looked for: passed to its agent at a ' +
    'commit, or skipped saying why.',
  {
    source: Type.String({
      description: '`<provider>:<owner>/<name>` (`.agents`, `bosun-config`, the legacy `.bosun`).',
    }),
    scope: stringEnum(['organization', 'user']),
    owner: Type.String({ description: 'The organization, group or user it belongs to.' }),
    resolved_ref: nullable(Type.String({ description: 'The commit the conversation loads it at; null: skipped.' })),
    problem: nullable(Type.String({ description: 'Why it was skipped (no such repository, or no access).' })),
    read_with: Type.Optional(
      stringEnum(['user_token', 'app_installation', 'anonymous'], {
        description:
          'What read it: the user’s own token for its provider, the GitHub App’s installation on its owner (the ' +
          'user’s token could not; the user is a member of the owner), or no credentials. Absent: skipped.',
      }),
    ),
  },
);
export type ConversationSkillRepository = Static<typeof ConversationSkillRepository>;

export const AppConversationSkills = strictObject(
  'AppConversationSkills',
  'The skills the conversation’s agent loads, from its workspace and its skill sources, as its agent server merges them.',
  {
    skills: Type.Array(ref(AppConversationSkill)),
    repositories: Type.Optional(
      Type.Array(ref(ConversationSkillRepository), {
        description: 'The organization and user skills repositories its start looked for (found or skipped).',
      }),
    ),
    diagnostics: Type.Optional(
      Type.Array(ref(SkillDiagnostic), {
        description: 'Errors and warnings of loading them (a name defined in both `.agents` and the legacy `.bosun`).',
      }),
    ),
  },
);
export type AppConversationSkills = Static<typeof AppConversationSkills>;

export const AppConversationHookDefinition = strictObject(
  'AppConversationHookDefinition',
  'One hook: a shell command.',
  {
    type: Type.String({ description: 'Always `command`.' }),
    command: Type.String(),
    timeout: Type.Number({ description: 'Seconds before the command is killed (60 when the file gives none).' }),
    async: Type.Boolean({ description: 'OpenHands’ flag; Bosun runs every hook synchronously: false.' }),
  },
);
export type AppConversationHookDefinition = Static<typeof AppConversationHookDefinition>;

export const AppConversationHookMatcher = strictObject(
  'AppConversationHookMatcher',
  'Hooks that run, in order, for the tools `matcher` selects.',
  { matcher: Type.String(), hooks: Type.Array(ref(AppConversationHookDefinition)) },
);
export type AppConversationHookMatcher = Static<typeof AppConversationHookMatcher>;

export const HOOK_EVENT_TYPES = [
  'pre_tool_use',
  'post_tool_use',
  'user_prompt_submit',
  'session_start',
  'session_end',
  'stop',
] as const;

export const AppConversationHookEvent = strictObject(
  'AppConversationHookEvent',
  'The hooks of one event, under OpenHands’ name of it.',
  { event_type: stringEnum(HOOK_EVENT_TYPES), matchers: Type.Array(ref(AppConversationHookMatcher)) },
);
export type AppConversationHookEvent = Static<typeof AppConversationHookEvent>;

export const AppConversationHooks = strictObject(
  'AppConversationHooks',
  'The hooks the workspace declares now (`.openhands/hooks.json` of the working directory), by event; ' +
    'events without hooks are left out.',
  { hooks: Type.Array(ref(AppConversationHookEvent)) },
);
export type AppConversationHooks = Static<typeof AppConversationHooks>;

/** The largest file `GET .../file` answers (a larger one is a 413). */
export const MAX_CONVERSATION_FILE_BYTES = 2 * 1024 * 1024;
