import type { TextContent } from '@bosun/protocol';
import { uniqueShortNames } from './names.ts';
import { renderCatalog, renderInstructions, renderTriggered } from './render.ts';
import type { Skill } from './types.ts';

export interface TriggeredSkills {
  /** Names of the skills the message activated (`MessageEvent.activated_skills`). */
  names: string[];
  /** Their content, one block each (`MessageEvent.extended_content`). */
  content: TextContent[];
}

/**
 * The skills of one agent, by how the agent meets them: always-on ones are in the system prompt in full;
 * invocable ones are in the catalog and loaded by `invoke_skill`; triggered ones join a user message whose
 * text holds one of their keywords (or `/<name>`), once per conversation.
 */
export class SkillSet {
  private readonly byName: Map<string, Skill>;
  /** Plugin skills by their short name, when no other skill answers to it. */
  private readonly byShortName: Map<string, Skill>;
  private readonly shortNames: Map<Skill, string>;

  constructor(readonly skills: readonly Skill[] = []) {
    this.byName = new Map(skills.map((skill) => [skill.name, skill]));
    this.byShortName = uniqueShortNames(skills);
    this.shortNames = new Map([...this.byShortName].map(([short, skill]) => [skill, short]));
  }

  /** A skill by its name, or a plugin skill by its short name when it is the only one of that short name. */
  get(name: string): Skill | undefined {
    return this.byName.get(name) ?? this.byShortName.get(name);
  }

  /** In the system prompt in full: instruction files, and legacy skills without a trigger. */
  alwaysOn(): Skill[] {
    return this.skills.filter((skill) => isAlwaysOn(skill));
  }

  /** In the catalog and loadable with `invoke_skill`. */
  invocable(): Skill[] {
    return this.skills.filter((skill) => !isAlwaysOn(skill) && !skill.disableModelInvocation);
  }

  /** What the skills add to the system prompt's dynamic part ('' when nothing). */
  systemContext(): string {
    return [renderInstructions(this.alwaysOn()), renderCatalog(this.invocable())].filter(Boolean).join('\n\n');
  }

  /**
   * The skills `text` activates and that are not in `activated` yet: a keyword of its trigger appears in the
   * text (case-insensitive, as OpenHands), or `/<name>` starts a word (user invocation, as Claude Code); a plugin
   * skill answers to `/<short name>` too when no other skill does.
   */
  triggered(text: string, activated: Iterable<string> = []): TriggeredSkills {
    const done = new Set(activated);
    const lower = text.toLowerCase();
    const names: string[] = [];
    const content: TextContent[] = [];
    for (const skill of this.skills) {
      if (done.has(skill.name) || isAlwaysOn(skill)) continue;
      const keyword = matchingKeyword(skill, text, lower, this.shortNames.get(skill));
      if (keyword === null) continue;
      names.push(skill.name);
      content.push({ type: 'text', text: renderTriggered(skill, keyword), cache_prompt: false });
    }
    return { names, content };
  }
}

function isAlwaysOn(skill: Skill): boolean {
  return skill.format === 'instructions' || (skill.format === 'legacy' && skill.trigger === null);
}

function matchingKeyword(skill: Skill, text: string, lower: string, short: string | undefined): string | null {
  const keywords = skill.trigger?.type === 'keyword' ? skill.trigger.keywords : (skill.trigger?.triggers ?? []);
  // A slash keyword (a command's `/plugin:command`, an entry command's `/plugin`) is a command, never a substring:
  // `/greeter` must not fire inside `/greeter:welcome`. Other keywords match anywhere, as OpenHands matches them.
  const keyword = keywords.find((candidate) =>
    candidate.startsWith('/')
      ? isSlashCommandIn(lower, candidate.toLowerCase())
      : lower.includes(candidate.toLowerCase()),
  );
  if (keyword !== undefined) return keyword;
  if (!skill.userInvocable) return null;
  for (const name of short === undefined ? [skill.name] : [skill.name, short]) {
    if (isSlashCommandIn(text, `/${name}`)) return `/${name}`;
  }
  return null;
}

/** `slash` written as a command in `text`: after a space or at the start, its name ending there. */
function isSlashCommandIn(text: string, slash: string): boolean {
  const escaped = slash.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // `/discord` must not match the start of `/discord:access`: a ':' ends the name only before a space.
  return new RegExp(`(^|\\s)${escaped}(?=$|[\\s.,;!?)]|:(?:\\s|$))`).test(text);
}
