import { basename } from 'node:path';
import { DESCRIPTION_MAX } from './spec.ts';
import type { Skill } from './types.ts';

/** How the LLM reads skills: always-on instructions, the catalog, one skill's content, a triggered skill. */

export const INVOKE_SKILL = 'invoke_skill';

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The always-on skills (AGENTS.md and friends, legacy skills without trigger), in full. */
export function renderInstructions(skills: readonly Skill[]): string {
  if (skills.length === 0) return '';
  const parts = skills.map((skill) => `[${instructionsLabel(skill)}: ${skill.file}]\n${skill.content}`);
  return [
    '<REPO_CONTEXT>',
    "The following instructions come from files of the user's repository and skill sources. Follow them while working.",
    '',
    parts.join('\n\n'),
    '</REPO_CONTEXT>',
  ].join('\n');
}

function instructionsLabel(skill: Skill): string {
  return skill.format === 'instructions' ? basename(skill.file) : `skill ${skill.name}`;
}

/** The catalog of skills the agent can load with `invoke_skill` (name and description each); '' when none. */
export function renderCatalog(skills: readonly Skill[]): string {
  if (skills.length === 0) return '';
  const entries = skills.map((skill) =>
    [
      '  <skill>',
      `    <name>${escapeXml(skill.name)}</name>`,
      `    <description>${escapeXml(catalogDescription(skill))}</description>`,
      '  </skill>',
    ].join('\n'),
  );
  return [
    '<SKILLS>',
    `Skills are instructions for specific tasks. When a task matches the description of a skill below, call ${INVOKE_SKILL} with its name to load its full instructions before you start, and follow them.`,
    '<available_skills>',
    ...entries,
    '</available_skills>',
    '</SKILLS>',
  ].join('\n');
}

/** The description (or, without one, the first line of text), cut at the specification's limit. */
export function catalogDescription(skill: Skill): string {
  const text =
    skill.description ??
    skill.content
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line !== '' && !line.startsWith('#')) ??
    '';
  if (text.length <= DESCRIPTION_MAX) return text;
  const cut = text.length - DESCRIPTION_MAX;
  return `${text.slice(0, DESCRIPTION_MAX)}… [${cut} characters truncated. Call ${INVOKE_SKILL}(name="${skill.name}") to load the full skill]`;
}

/**
 * A skill's full content as `invoke_skill` returns it (the Agent Skills client guide's shape): the
 * instructions, where relative paths resolve, and its bundled files, listed but not read.
 */
export function renderSkillContent(skill: Skill): string {
  const lines = [`<skill_content name="${escapeXml(skill.name)}">`, skill.content, ''];
  if (skill.dir) {
    lines.push(`Skill directory: ${skill.dir}`, 'Relative paths in this skill are relative to the skill directory.');
    const files = skill.resources
      ? [...skill.resources.scripts, ...skill.resources.references, ...skill.resources.assets]
      : [];
    if (files.length) {
      lines.push(
        '',
        '<skill_resources>',
        ...files.map((file) => `  <file>${escapeXml(file)}</file>`),
        '</skill_resources>',
      );
    }
  } else {
    lines.push(`Skill file: ${skill.file}`);
  }
  lines.push('</skill_content>');
  return lines.join('\n');
}

/** A skill a user message triggered, as added to that message's `extended_content` (OpenHands' `<EXTRA_INFO>`). */
export function renderTriggered(skill: Skill, keyword: string): string {
  return [
    EXTRA_INFO_START,
    `The following information has been included based on a keyword match for "${keyword}".`,
    "It may or may not be relevant to the user's request.",
    `Skill location: ${skill.dir ?? skill.file}`,
    '(Use this path to resolve relative file references in the skill content below)',
    '',
    renderSkillContent(skill),
    '</EXTRA_INFO>',
  ].join('\n');
}

export const EXTRA_INFO_START = '<EXTRA_INFO>';
