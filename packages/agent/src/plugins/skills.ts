import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { listResources } from '../skills/directory.ts';
import { mergeSkills } from '../skills/merge.ts';
import { parseAgentSkill } from '../skills/parse.ts';
import type { LoadedSkills, Skill, SkillProblem, SkillSource } from '../skills/types.ts';
import type { LoadedPlugin } from './plugin.ts';

/**
 * A plugin's skills as the agent has them (scope `plugin`, origin the plugin's name): its skill directories, and
 * its commands as legacy skills triggered by `/<plugin>:<command>` (OpenHands' conversion).
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
    if (parsed.skill) skills.push(parsed.skill);
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

/**
 * The conversation's skills with its plugins' added, OpenHands' precedence: skills of plugins a marketplace
 * auto-loads sit below every other scope (`below`), skills of the plugins the conversation names above them all
 * (`above`, a later plugin above an earlier one). Same name: the higher one replaces the lower (reported as
 * `info`); `disabled` names are left out.
 */
export async function withPluginSkills(
  skills: LoadedSkills,
  plugins: { below?: readonly LoadedPlugin[]; above?: readonly LoadedPlugin[] },
  disabled: readonly string[] = [],
): Promise<LoadedSkills> {
  const below = await Promise.all((plugins.below ?? []).map(pluginSkills));
  const above = await Promise.all((plugins.above ?? []).map(pluginSkills));
  if (!below.length && !above.length) return skills;
  const merged = mergeSkills([...below, { skills: skills.skills, problems: [] }, ...above], disabled);
  return { skills: merged.skills, problems: [...skills.problems, ...merged.problems] };
}
