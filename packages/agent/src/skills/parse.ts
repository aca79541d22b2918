import { parseFrontmatter, splitFrontmatter } from './frontmatter.ts';
import { BODY_LINES_RECOMMENDED, type RuleProblem, fieldProblems, isMapping, nameProblems } from './spec.ts';
import type { Skill, SkillProblem, SkillResources, SkillSource, SkillTrigger } from './types.ts';

export interface ParseInput {
  file: string;
  text: string;
  source: SkillSource;
}

export interface ParsedSkill {
  skill: Skill | null;
  problems: SkillProblem[];
}

/**
 * A `<name>/SKILL.md` skill. The specification's rules are all checked (for lint), but loading is lenient, as
 * the Agent Skills client guide asks: only a missing or unreadable frontmatter and a missing description leave
 * the skill out; a name that breaks the rules or differs from the directory is reported and the skill loads
 * (under its frontmatter name, or the directory name when it has none).
 */
export function parseAgentSkill(
  input: ParseInput & { dir: string; directoryName: string; resources: SkillResources | null },
): ParsedSkill {
  const { file } = input;
  const problems: SkillProblem[] = [];
  const add = (rule: RuleProblem, skipped = false) =>
    problems.push({ file, ...rule, ...(skipped ? { skipped: true } : {}) });
  const { frontmatter, body } = splitFrontmatter(input.text);
  if (frontmatter === null) {
    add(
      { field: null, severity: 'error', message: "has no frontmatter: it must start with '---', name and description" },
      true,
    );
    return { skill: null, problems };
  }
  const parsed = parseFrontmatter(frontmatter);
  if (!parsed.ok) {
    add({ field: null, severity: 'error', message: parsed.error }, true);
    return { skill: null, problems };
  }
  const { fields } = parsed;
  for (const field of parsed.quotedFields) {
    add({
      field,
      severity: 'warning',
      message: "contains ': ' and must be quoted in YAML; it was read as a quoted string",
    });
  }
  let name = input.directoryName;
  if (fields.name === undefined || fields.name === null) {
    add({
      field: 'name',
      severity: 'error',
      message: `is required (loaded as '${input.directoryName}', the directory name)`,
    });
  } else if (typeof fields.name !== 'string') {
    add({
      field: 'name',
      severity: 'error',
      message: `must be a string (loaded as '${input.directoryName}', the directory name)`,
    });
  } else {
    name = fields.name.normalize('NFKC').trim() || input.directoryName;
    for (const problem of nameProblems(fields.name, input.directoryName)) add(problem);
  }
  // Without a description the agent cannot know when to use the skill: the one field loading cannot do without.
  const unusable = typeof fields.description !== 'string' || fields.description.trim() === '';
  for (const problem of fieldProblems(fields)) add(problem, unusable && problem.field === 'description');
  if (unusable) return { skill: null, problems };
  const lines = body.split('\n').length;
  if (body.trim() === '')
    add({ field: null, severity: 'warning', message: 'has no instructions after the frontmatter' });
  else if (lines > BODY_LINES_RECOMMENDED) {
    add({
      field: null,
      severity: 'warning',
      message: `has ${lines} lines of instructions; the specification recommends under ${BODY_LINES_RECOMMENDED} (move details to references/)`,
    });
  }
  const skill = skillFrom(fields, {
    name,
    format: 'agentskills',
    content: body.trim(),
    file,
    dir: input.dir,
    resources: input.resources,
    source: input.source,
  });
  return { skill, problems };
}

/**
 * A loose `*.md` skill (OpenHands' format): the frontmatter is optional, the name defaults to the file name,
 * `triggers` or `inputs` make it triggered, and without a trigger it is always in the system prompt.
 */
export function parseLegacySkill(input: ParseInput & { stem: string }): ParsedSkill {
  const { frontmatter, body } = splitFrontmatter(input.text);
  let fields: Record<string, unknown> = {};
  if (frontmatter !== null) {
    const parsed = parseFrontmatter(frontmatter);
    if (!parsed.ok) {
      return {
        skill: null,
        problems: [{ file: input.file, field: null, severity: 'error', message: parsed.error, skipped: true }],
      };
    }
    fields = parsed.fields;
  }
  const name = typeof fields.name === 'string' && fields.name.trim() ? fields.name.trim() : input.stem;
  const skill = skillFrom(fields, {
    name,
    format: 'legacy',
    content: body.trim(),
    file: input.file,
    dir: null,
    resources: null,
    source: input.source,
  });
  return { skill, problems: [] };
}

/** An always-on instructions file (AGENTS.md, CLAUDE.md, GEMINI.md): its whole text, under a fixed name. */
export function instructionsSkill(name: string, input: ParseInput): Skill {
  return {
    name,
    format: 'instructions',
    description: null,
    content: input.text.replace(/^\uFEFF/, '').trim(),
    trigger: null,
    disableModelInvocation: true,
    userInvocable: false,
    license: null,
    compatibility: null,
    metadata: {},
    allowedTools: [],
    file: input.file,
    dir: null,
    resources: null,
    source: input.source,
  };
}

type Base = Pick<Skill, 'name' | 'format' | 'content' | 'file' | 'dir' | 'resources' | 'source'>;

function skillFrom(fields: Record<string, unknown>, base: Base): Skill {
  const description = typeof fields.description === 'string' ? fields.description.trim() : null;
  const disable = fields['disable-model-invocation'] ?? fields.disable_model_invocation;
  const tools = fields['allowed-tools'] ?? fields.allowed_tools;
  return {
    ...base,
    description: description || null,
    trigger: triggerOf(fields, base.name),
    disableModelInvocation: disable === true || disable === 'true',
    userInvocable: !(fields['user-invocable'] === false || fields['user-invocable'] === 'false'),
    license: typeof fields.license === 'string' ? fields.license : null,
    compatibility: typeof fields.compatibility === 'string' ? fields.compatibility : null,
    metadata: isMapping(fields.metadata)
      ? Object.fromEntries(Object.entries(fields.metadata).map(([key, value]) => [key, String(value)]))
      : {},
    allowedTools:
      typeof tools === 'string'
        ? tools.split(/\s+/).filter(Boolean)
        : Array.isArray(tools)
          ? tools.filter((tool): tool is string => typeof tool === 'string')
          : [],
  };
}

/** OpenHands' trigger inference: `inputs` make a task skill (also triggered by `/<name>`), `triggers` keywords. */
function triggerOf(fields: Record<string, unknown>, name: string): SkillTrigger | null {
  const keywords = stringList(fields.triggers);
  if (Array.isArray(fields.inputs)) {
    const inputs = fields.inputs.flatMap((input) =>
      isMapping(input) && typeof input.name === 'string'
        ? [{ name: input.name, description: typeof input.description === 'string' ? input.description : '' }]
        : [],
    );
    const slash = `/${name}`;
    return { type: 'task', triggers: keywords.includes(slash) ? keywords : [...keywords, slash], inputs };
  }
  return keywords.length ? { type: 'keyword', keywords } : null;
}

function stringList(value: unknown): string[] {
  if (typeof value === 'string') return value.trim() ? [value.trim()] : [];
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is string => typeof item === 'string' && item.trim() !== '').map((s) => s.trim());
}
