import type { SkillDiagnostic } from '@bosun/protocol';

/**
 * Where a skill came from, lowest precedence first: skills shipped with Bosun, user and organization skill
 * repositories, the workspace (project). `plugin` and `sandbox` are for skills of plugins and of the sandbox;
 * whoever loads those places them in the merge (see `merge.ts`).
 */
export type SkillScope = 'builtin' | 'user' | 'organization' | 'project' | 'plugin' | 'sandbox';

export interface SkillSource {
  scope: SkillScope;
  /** Who provided it, for people: a repository (`github:acme/.agents@<sha>`), a workspace path, a plugin name. */
  origin: string;
  /** The repository it was read from, as given (a skills repository's source, a plugin's), when it has one. */
  repository?: string;
  /** The commit (full SHA) it was read at, when known. */
  commit?: string;
  /** The registered marketplace whose plugin brought it (skills of auto-loaded marketplaces). */
  marketplace?: string;
}

/** When a skill's content is added to a user message without the agent asking for it. */
export type SkillTrigger =
  | { type: 'keyword'; keywords: string[] }
  /** A task skill (OpenHands' `inputs`): its keywords (`/<name>` among them) and the inputs it asks for. */
  | { type: 'task'; triggers: string[]; inputs: { name: string; description: string }[] };

/** The files a SKILL.md skill ships next to it (paths relative to its directory), listed, never read ahead. */
export interface SkillResources {
  scripts: string[];
  references: string[];
  assets: string[];
}

/**
 * One skill as Bosun loaded it. Three formats: `agentskills` (`<name>/SKILL.md`, the Agent Skills standard),
 * `legacy` (a loose `*.md` file, OpenHands' format) and `instructions` (AGENTS.md, CLAUDE.md, GEMINI.md).
 */
export interface Skill {
  name: string;
  format: 'agentskills' | 'legacy' | 'instructions';
  description: string | null;
  /** The Markdown body, frontmatter removed. */
  content: string;
  trigger: SkillTrigger | null;
  /** Left out of the catalog and of `invoke_skill` (Claude Code's `disable-model-invocation`). */
  disableModelInvocation: boolean;
  /** `/<name>` in a user message activates it (Claude Code's `user-invocable`, default true). */
  userInvocable: boolean;
  license: string | null;
  compatibility: string | null;
  metadata: Record<string, string>;
  allowedTools: string[];
  /** Absolute path of the file the skill was read from. */
  file: string;
  /** The skill's directory (SKILL.md skills only): relative paths in its content resolve against it. */
  dir: string | null;
  resources: SkillResources | null;
  source: SkillSource;
}

/**
 * A problem found in a skill (the protocol's `SkillDiagnostic`). `error` and `warning` are what `bosun skills
 * lint` reports (errors exit 1); `info` is a decision of the merge (a skill overridden by one of a higher scope,
 * a disabled skill). `skipped` says that loading left the skill out because of it (loading is lenient: most
 * errors still load).
 */
export type SkillProblem = SkillDiagnostic;

export interface LoadedSkills {
  skills: Skill[];
  problems: SkillProblem[];
}
