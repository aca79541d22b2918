import type { LoadedSkills, Skill, SkillProblem, SkillScope } from './types.ts';

/**
 * Precedence of scopes, lowest first: a skill of a later scope replaces a skill of the same name of an earlier
 * one (OpenHands' order: built-in < user < organization < project). Plugins and the sandbox are placed by
 * whoever loads them; `SCOPE_ORDER` is where `mergeSkills` expects them when they are given together.
 */
export const SCOPE_ORDER: readonly SkillScope[] = ['sandbox', 'builtin', 'user', 'organization', 'project', 'plugin'];

/** A skill left out because another definition of its name is used. */
export function nameConflict(file: string, severity: SkillProblem['severity'], message: string): SkillProblem {
  return { file, field: 'name', severity, message, skipped: true };
}

const describe = (skill: Skill) => `${skill.source.scope} skill '${skill.name}' (${skill.file})`;

/**
 * One set of skills from layers of the same scope, in order: the first definition of a name wins and each
 * later one is reported (warning, skipped) naming both files.
 */
export function firstWins(layers: readonly LoadedSkills[]): LoadedSkills {
  const byName = new Map<string, Skill>();
  const problems: SkillProblem[] = [];
  for (const layer of layers) {
    problems.push(...layer.problems);
    for (const skill of layer.skills) {
      const first = byName.get(skill.name);
      if (!first) {
        byName.set(skill.name, skill);
        continue;
      }
      problems.push(
        nameConflict(skill.file, 'warning', `skill '${skill.name}' is shadowed by ${first.file}, which is used`),
      );
    }
  }
  return { skills: [...byName.values()], problems };
}

/**
 * Skills of several scopes merged by precedence: layers are given lowest first, and a later skill replaces an
 * earlier one of the same name (reported as `info`, skipped, naming both files). Names in `disabled` are left
 * out (reported too). Order: each name where it first appeared.
 */
export function mergeSkills(layers: readonly LoadedSkills[], disabled: readonly string[] = []): LoadedSkills {
  const byName = new Map<string, Skill>();
  const problems: SkillProblem[] = [];
  for (const layer of layers) {
    problems.push(...layer.problems);
    for (const skill of layer.skills) {
      const earlier = byName.get(skill.name);
      if (earlier) {
        problems.push(nameConflict(earlier.file, 'info', `${describe(earlier)} is overridden by ${describe(skill)}`));
      }
      byName.set(skill.name, skill);
    }
  }
  const off = new Set(disabled);
  for (const skill of byName.values()) {
    if (!off.has(skill.name)) continue;
    byName.delete(skill.name);
    problems.push({
      file: skill.file,
      field: 'name',
      severity: 'info',
      message: `skill '${skill.name}' is disabled (agent_context.disabled_skills)`,
      skipped: true,
    });
  }
  return { skills: [...byName.values()], problems };
}
