import { severityOf } from './findings.ts';
import { shortNameOf } from './names.ts';
import type { LoadedSkills, Skill, SkillProblem, SkillScope } from './types.ts';

/**
 * Precedence of scopes, lowest first: a skill of a later scope replaces a skill of the same name of an earlier
 * one (OpenHands' order: built-in < user < organization < project). Plugins and the sandbox are placed by
 * whoever loads them; `SCOPE_ORDER` is where `mergeSkills` expects them when they are given together.
 */
export const SCOPE_ORDER: readonly SkillScope[] = ['sandbox', 'builtin', 'user', 'organization', 'project', 'plugin'];

/** A skill left out, by its name: another definition of the name is used, or the name is disabled. */
export function skipped(file: string, severity: SkillProblem['severity'], message: string): SkillProblem {
  return { file, field: 'name', severity, message, skipped: true };
}

const describe = (skill: Skill) =>
  `${skill.source.scope} skill '${skill.name}'${skill.source.scope === 'plugin' ? ` of ${skill.source.origin}` : ''} (${skill.file})`;

/**
 * The skills of `layers` by name, in the order each name first appeared, with the layers' problems; `resolve`
 * decides between an earlier and a later definition of one name, and reports the one left out.
 */
function byName(
  layers: readonly LoadedSkills[],
  resolve: (earlier: Skill, later: Skill) => { use: Skill; problem: SkillProblem },
): { skills: Map<string, Skill>; problems: SkillProblem[] } {
  const skills = new Map<string, Skill>();
  const problems: SkillProblem[] = [];
  for (const layer of layers) {
    problems.push(...layer.problems);
    for (const skill of layer.skills) {
      const earlier = skills.get(skill.name);
      if (!earlier) {
        skills.set(skill.name, skill);
        continue;
      }
      const { use, problem } = resolve(earlier, skill);
      skills.set(skill.name, use);
      problems.push(problem);
    }
  }
  return { skills, problems };
}

/**
 * One set of skills from layers of the same scope, in order: the first definition of a name wins and each
 * later one is reported (warning, skipped) naming both files.
 */
export function firstWins(layers: readonly LoadedSkills[]): LoadedSkills {
  const { skills, problems } = byName(layers, (first, later) => ({
    use: first,
    problem: skipped(
      later.file,
      severityOf('name-duplicate'),
      `skill '${later.name}' is shadowed by ${first.file}, which is used`,
    ),
  }));
  return { skills: [...skills.values()], problems };
}

export interface MergeOptions {
  /** How a name defined twice is reported (default `info`: a precedence decision). */
  collision?: (earlier: Skill, later: Skill) => SkillProblem['severity'];
}

/**
 * Skills of several scopes merged by precedence: layers are given lowest first, and a later skill replaces an
 * earlier one of the same name (reported, skipped, naming both files: `info` unless `options.collision` says
 * otherwise). Names in `disabled` are left out (reported too); a name there also turns off the plugin skills it
 * is the short name of (`access`: every `<plugin>:access`). Order: each name where it first appeared.
 */
export function mergeSkills(
  layers: readonly LoadedSkills[],
  disabled: readonly string[] = [],
  options: MergeOptions = {},
): LoadedSkills {
  const { skills, problems } = byName(layers, (earlier, later) => ({
    use: later,
    problem: skipped(
      earlier.file,
      options.collision?.(earlier, later) ?? 'info',
      `${describe(earlier)} is overridden by ${describe(later)}`,
    ),
  }));
  const off = new Set(disabled);
  for (const skill of skills.values()) {
    if (!off.has(skill.name) && !off.has(shortNameOf(skill) ?? skill.name)) continue;
    skills.delete(skill.name);
    problems.push(skipped(skill.file, 'info', `skill '${skill.name}' is disabled (agent_context.disabled_skills)`));
  }
  return { skills: [...skills.values()], problems };
}
