import { type FindingId, type SkillFinding, severityOf, skipsSkill } from './findings.ts';
import { parseFrontmatter, splitFrontmatter } from './frontmatter.ts';
import { BODY_LINES_RECOMMENDED, fieldProblems, isMapping, nameProblems } from './spec.ts';
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

/** A finding as a problem of `file`; an error is one that left the skill out (see `FINDINGS`). */
export function problemOf(file: string, finding: SkillFinding): SkillProblem {
  const severity = severityOf(finding.finding);
  return {
    file,
    field: finding.field,
    severity,
    message: finding.message,
    ...(skipsSkill(finding.finding) ? { skipped: true } : {}),
  };
}

/**
 * A `<name>/SKILL.md` skill. The specification's rules are all checked (for lint), but loading is lenient, as
 * the Agent Skills client guide asks: only a missing or unreadable frontmatter and a missing description leave
 * the skill out (errors); a name that breaks the rules or differs from the directory is a warning and the skill
 * loads (under its frontmatter name, or the directory name when it has none). Severities are `FINDINGS`'.
 */
export function parseAgentSkill(
  input: ParseInput & { dir: string; directoryName: string; resources: SkillResources | null },
): ParsedSkill {
  const { skill, findings } = checkAgentSkill(input);
  return { skill, problems: findings.map((finding) => problemOf(input.file, finding)) };
}

/** `parseAgentSkill` with each problem's finding (which rule of the table it is). */
export function checkAgentSkill(
  input: ParseInput & { dir: string; directoryName: string; resources: SkillResources | null },
): { skill: Skill | null; findings: SkillFinding[] } {
  const findings: SkillFinding[] = [];
  const add = (finding: FindingId, field: string | null, message: string) => findings.push({ finding, field, message });
  const { frontmatter, body } = splitFrontmatter(input.text);
  if (frontmatter === null) {
    add('frontmatter-missing', null, "has no frontmatter: it must start with '---', name and description");
    return { skill: null, findings };
  }
  const parsed = parseFrontmatter(frontmatter);
  if (!parsed.ok) {
    add('frontmatter-invalid', null, parsed.error);
    return { skill: null, findings };
  }
  const { fields } = parsed;
  for (const field of parsed.quotedFields) {
    add('yaml-unquoted-colon', field, "contains ': ' and must be quoted in YAML; it was read as a quoted string");
  }
  let name = input.directoryName;
  if (fields.name === undefined || fields.name === null) {
    add('name-missing', 'name', `is required (loaded as '${input.directoryName}', the directory name)`);
  } else if (typeof fields.name !== 'string') {
    add('name-missing', 'name', `must be a string (loaded as '${input.directoryName}', the directory name)`);
  } else {
    name = fields.name.normalize('NFKC').trim() || input.directoryName;
    findings.push(...nameProblems(fields.name, input.directoryName));
  }
  findings.push(...fieldProblems(fields));
  // Without a description the agent cannot know when to use the skill: the one field loading cannot do without.
  if (findings.some((finding) => skipsSkill(finding.finding))) return { skill: null, findings };
  const lines = body.split('\n').length;
  if (body.trim() === '') add('body-empty', null, 'has no instructions after the frontmatter');
  else if (lines > BODY_LINES_RECOMMENDED) {
    add(
      'body-long',
      null,
      `has ${lines} lines of instructions; the specification recommends under ${BODY_LINES_RECOMMENDED} (move details to references/)`,
    );
  }
  const skill = skillFrom(fields, {
    name,
    format: 'agentskills',
    content: body.trim(),
    file: input.file,
    dir: input.dir,
    resources: input.resources,
    source: input.source,
  });
  return { skill, findings };
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
