import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { listResources } from '../skills/directory.ts';
import { severityOf } from '../skills/findings.ts';
import { mergeSkills } from '../skills/merge.ts';
import { qualifiedName } from '../skills/names.ts';
import { parseAgentSkill } from '../skills/parse.ts';
import type { LoadedSkills, Skill, SkillProblem, SkillSource } from '../skills/types.ts';
import type { LoadedPlugin } from './plugin.ts';

/**
 * A plugin's skills as the agent has them (scope `plugin`, origin the plugin's name): its skill directories,
 * named `<plugin>:<skill>` (so two plugins' `access` skills are two skills), and its commands as legacy skills
 * triggered by `/<plugin>:<command>` (OpenHands' conversion).
 */
export async function pluginSkills(plugin: LoadedPlugin): Promise<LoadedSkills> {
  const source: SkillSource = { scope: 'plugin', origin: plugin.name };
  const skills: Skill[] = [];
  const problems: SkillProblem[] = [];
  for (const skill of plugin.skills) {
    const file = join(plugin.root, skill.path);
    const parsed = parseAgentSkill({
      file,
      text: await readFile(file, 'utf8'),
      source,
      dir: skill.dir,
      // A root SKILL.md is named after its plugin, not after the cache directory holding it.
      directoryName: skill.dir === plugin.root ? skill.name : basename(skill.dir),
      resources: await listResources(skill.dir),
    });
    problems.push(...parsed.problems);
    if (parsed.skill) skills.push(qualified(parsed.skill, plugin.name));
  }
  for (const command of plugin.commands) {
    skills.push({
      name: command.name,
      format: 'legacy',
      description: command.description,
      content: command.content,
      trigger: { type: 'keyword', keywords: command.triggers },
      disableModelInvocation: false,
      userInvocable: true,
      license: null,
      compatibility: null,
      metadata: {},
      allowedTools: [],
      file: command.file,
      dir: null,
      resources: null,
      source,
    });
  }
  return { skills, problems };
}

/** A plugin's skill under its plugin's name; a task skill's `/<name>` trigger follows. */
function qualified(skill: Skill, plugin: string): Skill {
  const name = qualifiedName(plugin, skill.name);
  const trigger =
    skill.trigger?.type === 'task'
      ? { ...skill.trigger, triggers: skill.trigger.triggers.map((t) => (t === `/${skill.name}` ? `/${name}` : t)) }
      : skill.trigger;
  return { ...skill, name, trigger };
}

/** Two skills of one name where one is a plugin's: worth a warning (a precedence between scopes is not). */
const collision = (earlier: Skill, later: Skill) =>
  earlier.source.scope === 'plugin' || later.source.scope === 'plugin' ? severityOf('name-duplicate') : 'info';

/**
 * The conversation's skills with its plugins' added, OpenHands' precedence: skills of plugins a marketplace
 * auto-loads sit below every other scope (`below`), skills of the plugins the conversation names above them all
 * (`above`, a later plugin above an earlier one). Same name: the higher one replaces the lower (a warning naming
 * both, as plugins' skills are named by their plugin, only the same plugin twice or a plugin named like another
 * scope's skill gets there); `disabled` names are left out.
 */
export async function withPluginSkills(
  skills: LoadedSkills,
  plugins: { below?: readonly LoadedPlugin[]; above?: readonly LoadedPlugin[] },
  disabled: readonly string[] = [],
): Promise<LoadedSkills> {
  const below = await Promise.all((plugins.below ?? []).map(pluginSkills));
  const above = await Promise.all((plugins.above ?? []).map(pluginSkills));
  if (!below.length && !above.length) return skills;
  const merged = mergeSkills([...below, { skills: skills.skills, problems: [] }, ...above], disabled, { collision });
  return { skills: merged.skills, problems: [...skills.problems, ...merged.problems] };
}
