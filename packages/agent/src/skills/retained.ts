import type { Event, TextContent } from '@bosun/protocol';
import { EXTRA_INFO_START, INVOKE_SKILL } from '@bosun/sources';

/** Skill content an event carries, by a key that names the skill (the same skill loaded twice is kept once). */
export type RetainedSkills = Map<string, string>;

/**
 * The skill content in an event: the result of an `invoke_skill` call, or the triggered skills a user message
 * carries in its `extended_content`. Condensation must never lose it (`session/llm-view.ts` re-attaches it).
 */
export function skillContentOf(event: Event): RetainedSkills {
  const found: RetainedSkills = new Map();
  if (event.kind === 'ObservationEvent') {
    const { observation } = event;
    if (event.tool_name !== INVOKE_SKILL || observation.kind !== 'MCPToolObservation' || observation.is_error) {
      return found;
    }
    const text = observation.content
      .filter((block): block is TextContent => block.type === 'text')
      .map((block) => block.text)
      .join('\n');
    if (text) found.set(skillKey(text), text);
  } else if (event.kind === 'MessageEvent' && event.activated_skills.length > 0) {
    for (const block of event.extended_content) {
      if (block.text.startsWith(EXTRA_INFO_START)) found.set(skillKey(block.text), block.text);
    }
  }
  return found;
}

function skillKey(text: string): string {
  const name = /<skill_content name="([^"]*)">/.exec(text)?.[1];
  return name === undefined ? text : `skill:${name}`;
}

/** The retained skills as text appended to a condensation summary. */
export function renderRetained(skills: RetainedSkills): string {
  return [
    '<retained_skills>',
    'Skills loaded earlier in this conversation (kept in full through the condensation):',
    ...skills.values(),
    '</retained_skills>',
  ].join('\n');
}
