import { type Static, Type } from '@sinclair/typebox';
import { nullable, ref, strictObject, stringEnum, withDefault } from '../schema/builders.ts';
import { RegisteredMarketplace } from './marketplaces.ts';

/** What a conversation's agent knows beyond its system prompt: skills, their sources, marketplaces. */

export const SkillRepository = strictObject(
  'SkillRepository',
  {
    source: Type.String({
      minLength: 1,
      description:
        'A Git URL or `<provider>:<owner>/<repo>` of an organization or user skills repository (`.agents`, `bosun-config`, or the legacy `.bosun`).',
    }),
    scope: withDefault(stringEnum(['organization', 'user']), 'organization'),
    ref: Type.Optional(nullable(Type.String({ minLength: 1, description: 'Branch, tag or commit.' }))),
  },
  { description: 'A repository of skills shared by an organization or a user.' },
);
export type SkillRepository = Static<typeof SkillRepository>;

export const AgentContext = strictObject(
  'AgentContext',
  {
    load_project_skills: withDefault(
      Type.Boolean({
        description: 'Load `AGENTS.md` (`CLAUDE.md`, `GEMINI.md`) and `.agents/skills/` from the workspace.',
      }),
      true,
    ),
    skill_repositories: withDefault(Type.Array(ref(SkillRepository)), []),
    disabled_skills: withDefault(
      Type.Array(Type.String({ minLength: 1 }), { description: 'Skills never loaded.' }),
      [],
    ),
    registered_marketplaces: withDefault(Type.Array(ref(RegisteredMarketplace)), []),
    system_message_suffix: Type.Optional(nullable(Type.String({ description: 'Appended to the system prompt.' }))),
    user_message_suffix: Type.Optional(
      nullable(Type.String({ description: "Appended to each user message's `extended_content`." })),
    ),
  },
  { description: 'Skills, their sources and marketplaces of the agent.' },
);
export type AgentContext = Static<typeof AgentContext>;
