import type { Skill } from './types.ts';

/**
 * How plugin skills are named. A plugin's skill and command are named by their plugin, `plugin:skill`, so that
 * plugins shipping a skill of the same name (`access`, `configure`) each keep theirs. The part after the plugin
 * is the skill's short name: `/<short>`, `invoke_skill` and `disabled_skills` accept it too (see `SkillSet` and
 * `mergeSkills`), since users type the name the plugin gives its skill.
 */
export const qualifiedName = (plugin: string, name: string) => `${plugin}:${name}`;

/** The name of a plugin skill without its plugin (`access` of `discord:access`); null for any other skill. */
export function shortNameOf(skill: Pick<Skill, 'name' | 'source'>): string | null {
  if (skill.source.scope !== 'plugin') return null;
  const prefix = `${skill.source.origin}:`;
  return skill.name.startsWith(prefix) && skill.name.length > prefix.length ? skill.name.slice(prefix.length) : null;
}

/**
 * The skills by short name, for names only one skill answers to: a short name that two plugins share, or that
 * is also a skill's full name, is not there (the full name must be used).
 */
export function uniqueShortNames(skills: readonly Skill[]): Map<string, Skill> {
  const full = new Set(skills.map((skill) => skill.name));
  const found = new Map<string, Skill | null>();
  for (const skill of skills) {
    const short = shortNameOf(skill);
    if (short === null || full.has(short)) continue;
    found.set(short, found.has(short) ? null : skill);
  }
  return new Map([...found].flatMap(([short, skill]) => (skill ? [[short, skill] as const] : [])));
}
