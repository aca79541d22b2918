import { type Static, Type } from '@sinclair/typebox';
import { namedEnum, nullable, ref, strictObject, stringEnum, withDefault } from '../schema/builders.ts';
import { RegisteredMarketplace } from './marketplaces.ts';
import { PluginSource } from './plugins.ts';

/** What a conversation's agent knows beyond its system prompt: skills, their sources, marketplaces. */

export const SkillRepository = strictObject(
  'SkillRepository',
  'A repository of skills shared by an organization or a user.',
  {
    source: Type.String({
      minLength: 1,
      description:
        'A Git URL or `<provider>:<owner>/<repo>` of an organization or user skills repository (`.agents`, `bosun-config`, or the legacy `.bosun`).',
    }),
    scope: withDefault(stringEnum(['organization', 'user']), 'organization'),
    ref: Type.Optional(nullable(Type.String({ minLength: 1, description: 'Branch, tag or commit.' }))),
  },
);
export type SkillRepository = Static<typeof SkillRepository>;

export const AgentContext = strictObject('AgentContext', 'Skills, their sources and marketplaces of the agent.', {
  load_project_skills: withDefault(
    Type.Boolean({
      description: 'Load `AGENTS.md` (`CLAUDE.md`, `GEMINI.md`) and `.agents/skills/` from the workspace.',
    }),
    true,
  ),
  load_builtin_skills: withDefault(
    Type.Boolean({ description: 'Load the skills that ship with Bosun (lowest precedence).' }),
    false,
  ),
  skill_repositories: withDefault(Type.Array(ref(SkillRepository)), []),
  disabled_skills: withDefault(Type.Array(Type.String({ minLength: 1 }), { description: 'Skills never loaded.' }), []),
  registered_marketplaces: withDefault(Type.Array(ref(RegisteredMarketplace)), []),
  system_message_suffix: Type.Optional(nullable(Type.String({ description: 'Appended to the system prompt.' }))),
  user_message_suffix: Type.Optional(
    nullable(Type.String({ description: "Appended to each user message's `extended_content`." })),
  ),
});
export type AgentContext = Static<typeof AgentContext>;

export const SkillDiagnostic = strictObject(
  'SkillDiagnostic',
  'A problem found while loading skills, or why a skill was left out.',
  {
    file: Type.String({ description: 'The file, directory or repository the problem is about.' }),
    field: nullable(Type.String({ description: 'The frontmatter field, or null for the file as a whole.' })),
    severity: stringEnum(['error', 'warning', 'info'], {
      description:
        '`error` and `warning` as `bosun skills lint` reports them; `info`: a decision of the merge (an overridden or disabled skill).',
    }),
    message: Type.String(),
    skipped: Type.Optional(Type.Boolean({ description: 'The skill (or repository) was not loaded because of it.' })),
  },
);
export type SkillDiagnostic = Static<typeof SkillDiagnostic>;

export const ResolvedSkillRepository = strictObject(
  'ResolvedSkillRepository',
  'A skills repository and the commit loaded from it.',
  {
    source: Type.String({ description: 'As given (credentials in it are redacted in responses).' }),
    scope: stringEnum(['organization', 'user']),
    ref: nullable(Type.String()),
    url: nullable(Type.String({ description: 'The Git URL, without credentials.' })),
    resolved_ref: nullable(
      Type.String({ description: 'The commit loaded (full SHA); a conversation keeps loading this one.' }),
    ),
    error: nullable(Type.String({ description: 'Why the repository was not loaded.' })),
  },
);
export type ResolvedSkillRepository = Static<typeof ResolvedSkillRepository>;

export const OrgConfig = strictObject('OrgConfig', "OpenHands' organization skills configuration.", {
  repository: Type.String({ description: "Selected repository (e.g. 'owner/repo')." }),
  provider: Type.String({ description: 'Git provider type: github, gitlab, azure, bitbucket.' }),
  org_repo_url: Type.String({
    description: "The organization's skills repository as a Git URL (credentials in it are used, never shown).",
  }),
  org_name: Type.String({ description: 'Organization name.' }),
});

export const ExposedUrl = strictObject('ExposedUrl', 'A URL the sandbox exposes.', {
  name: Type.String(),
  url: Type.String(),
  port: Type.Integer(),
});

export const SandboxConfig = strictObject('SandboxConfig', 'What the sandbox exposes (becomes an always-on skill).', {
  exposed_urls: withDefault(Type.Array(ref(ExposedUrl)), []),
});

export const SkillsRequest = strictObject(
  'SkillsRequest',
  "What a conversation would load skills from (OpenHands' fields and Bosun's `agent_context` ones).",
  {
    load_public: withDefault(
      Type.Boolean({ description: "OpenHands' public skills: this server has no network source, so none load." }),
      true,
    ),
    load_user: withDefault(Type.Boolean({ description: 'Load user skill repositories.' }), true),
    load_project: withDefault(Type.Boolean({ description: 'Load the skills of `project_dir`.' }), true),
    load_org: withDefault(Type.Boolean({ description: 'Load organization skill repositories.' }), true),
    load_builtin: withDefault(Type.Boolean({ description: 'Load the skills that ship with Bosun.' }), false),
    project_dir: Type.Optional(nullable(Type.String({ minLength: 1, description: 'The workspace directory.' }))),
    org_configs: Type.Optional(nullable(Type.Array(ref(OrgConfig)))),
    org_config: Type.Optional(nullable(ref(OrgConfig, { description: 'Deprecated: use `org_configs`.' }))),
    skill_repositories: withDefault(Type.Array(ref(SkillRepository)), []),
    disabled_skills: withDefault(Type.Array(Type.String({ minLength: 1 })), []),
    marketplace_path: Type.Optional(nullable(Type.String())),
    registered_marketplaces: withDefault(Type.Array(ref(RegisteredMarketplace)), []),
    sandbox_config: Type.Optional(nullable(ref(SandboxConfig))),
    plugins: Type.Optional(
      nullable(
        Type.Array(ref(PluginSource), {
          description:
            "The plugins the conversation names (its start request's `plugins`): their skills and commands are listed above every other (scope `plugin`). Give a commit as `ref` to list what a conversation loaded.",
        }),
      ),
    ),
  },
);
export type SkillsRequest = Static<typeof SkillsRequest>;

/** Where a skill came from, as a person reads it in the Skills & Plugins table. */
export const SKILL_ORIGINS = [
  'organization_repository',
  'user_repository',
  'marketplace',
  'plugin',
  'repository',
  'builtin',
  'sandbox',
] as const;
export const SkillOrigin = namedEnum(
  'SkillOrigin',
  "Where a skill came from: an organization's or a user's skills repository (`.agents`, `bosun-config`, the legacy " +
    '`.bosun`), a plugin of an auto-loaded marketplace, a plugin the conversation names, the repository it works ' +
    'on (its `AGENTS.md` and `.agents/skills`), the skills shipped with Bosun, or the sandbox.',
  SKILL_ORIGINS,
);
export type SkillOrigin = Static<typeof SkillOrigin>;

/** Where a skill came from and at which commit (each optional: agent servers before them send neither). */
export const skillOriginFields = {
  origin: Type.Optional(ref(SkillOrigin)),
  origin_source: Type.Optional(
    nullable(
      Type.String({
        description:
          'The repository (credentials redacted), marketplace or plugin it came from; null for built-in and sandbox skills.',
      }),
    ),
  ),
  commit: Type.Optional(
    nullable(Type.String({ description: 'The commit (full SHA) it was read at; null when it has none.' })),
  ),
};

export const SkillInfo = strictObject('SkillInfo', 'A skill as a conversation would load it.', {
  name: Type.String(),
  type: stringEnum(['repo', 'knowledge', 'agentskills'], {
    description: '`repo`: always in the system prompt; `knowledge`: triggered by keywords; `agentskills`: SKILL.md.',
  }),
  content: Type.String(),
  triggers: Type.Array(Type.String()),
  source: nullable(Type.String({ description: 'The file it was read from.' })),
  description: nullable(Type.String()),
  is_agentskills_format: Type.Boolean(),
  disable_model_invocation: Type.Boolean(),
  scope: stringEnum(['builtin', 'user', 'organization', 'project', 'plugin', 'sandbox']),
  ...skillOriginFields,
});
export type SkillInfo = Static<typeof SkillInfo>;

export const SkillsResponse = strictObject(
  'SkillsResponse',
  'The skills a conversation with these inputs would load.',
  {
    skills: Type.Array(ref(SkillInfo)),
    sources: Type.Record(Type.String(), Type.Integer(), { description: 'How many skills came from each source.' }),
    diagnostics: Type.Array(ref(SkillDiagnostic), { description: 'Every problem, and every skill left out with why.' }),
    repositories: Type.Array(ref(ResolvedSkillRepository)),
  },
);
export type SkillsResponse = Static<typeof SkillsResponse>;
