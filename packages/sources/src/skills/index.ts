export { builtinSkillsDir, loadBuiltinSkills } from './builtin.ts';
export { type ConversationSkills, type SkillLoadOptions, loadConversationSkills } from './conversation.ts';
export { listResources, loadSkillDirectory } from './directory.ts';
export { parseFrontmatter, splitFrontmatter } from './frontmatter.ts';
export { FINDINGS, type FindingId, type SkillFinding, severityOf } from './findings.ts';
export { type LintProblem, type LintResult, breaksSpecification, lintSkills } from './lint.ts';
export { SCOPE_ORDER, firstWins, mergeSkills } from './merge.ts';
export { INSTRUCTION_FILES, PROJECT_SKILL_DIRS, loadProjectSkills, repositoryRoot } from './project.ts';
export {
  EXTRA_INFO_START,
  INVOKE_SKILL,
  catalogDescription,
  renderCatalog,
  renderInstructions,
  renderSkillContent,
  renderTriggered,
} from './render.ts';
export {
  LEGACY_REPOSITORY,
  type RepositoryLoadOptions,
  type RepositorySkills,
  loadSkillRepositories,
  repositoryName,
} from './repositories.ts';
export { SkillSet, type TriggeredSkills } from './skill-set.ts';
export type {
  LoadedSkills,
  Skill,
  SkillProblem,
  SkillResources,
  SkillScope,
  SkillSource,
  SkillTrigger,
} from './types.ts';
