/**
 * The Agent Skills specification's rules for a SKILL.md frontmatter (agentskills.io, `skills-ref validate`),
 * as precise messages; how grave each is, is `FINDINGS`' to say. Pure: no I/O.
 */
import type { FindingId, SkillFinding } from './findings.ts';

export const NAME_MAX = 64;
export const DESCRIPTION_MAX = 1024;
export const COMPATIBILITY_MAX = 500;
/** The specification recommends keeping the instructions under this many lines. */
export const BODY_LINES_RECOMMENDED = 500;

/** The fields the specification allows; anything else makes `skills-ref validate` fail. */
export const SPEC_FIELDS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'];

/** Fields outside the specification that Bosun reads (OpenHands' and Claude Code's). */
export const BOSUN_FIELDS = [
  'triggers',
  'inputs',
  'disable-model-invocation',
  'disable_model_invocation',
  'user-invocable',
  'allowed_tools',
];

/** Fields of other clients (Claude Code, OpenHands) that Bosun knows and ignores. */
export const IGNORED_VENDOR_FIELDS = [
  'when_to_use',
  'argument-hint',
  'arguments',
  'disallowed-tools',
  'model',
  'effort',
  'context',
  'agent',
  'background',
  'hooks',
  'paths',
  'shell',
  'version',
  'type',
  'mcp_tools',
];

/** Problems of a skill name, checked as `skills-ref` does (NFKC; Unicode letters and digits accepted). */
export function nameProblems(name: string, directoryName: string | null): SkillFinding[] {
  const problems: SkillFinding[] = [];
  const error = (message: string) => problems.push({ finding: 'name-invalid', field: 'name', message });
  const normalized = name.normalize('NFKC').trim();
  if (normalized.length === 0) {
    error('must not be empty');
    return problems;
  }
  if (normalized.length > NAME_MAX) error(`must be at most ${NAME_MAX} characters, got ${normalized.length}`);
  if (normalized !== normalized.toLowerCase()) error(`must be lowercase, got '${name}'`);
  if (normalized.startsWith('-') || normalized.endsWith('-')) error(`must not start or end with '-', got '${name}'`);
  if (normalized.includes('--')) error(`must not contain '--', got '${name}'`);
  const invalid = [...new Set([...normalized].filter((c) => !/^[\p{L}\p{N}-]$/u.test(c)))];
  if (invalid.length) {
    error(`may contain only letters, digits and '-', got ${invalid.map((c) => JSON.stringify(c)).join(', ')}`);
  }
  if (directoryName !== null && directoryName.normalize('NFKC') !== normalized) {
    problems.push({
      finding: 'name-directory-mismatch',
      field: 'name',
      message: `must match the skill's directory name '${directoryName}', got '${name}'`,
    });
  }
  return problems;
}

/** Problems of the specification's fields other than `name`. */
export function fieldProblems(fields: Record<string, unknown>): SkillFinding[] {
  const problems: SkillFinding[] = [];
  const add = (finding: FindingId, field: string, message: string) => problems.push({ finding, field, message });
  const error = (field: string, message: string) => add('field-invalid', field, message);
  const extension = (field: string, message: string) => add('field-extension', field, message);

  const { description } = fields;
  const missing = (message: string) => add('description-missing', 'description', message);
  if (description === undefined || description === null) missing('is required');
  else if (typeof description !== 'string') missing(`must be a string, got ${typeName(description)}`);
  else if (description.trim() === '') missing('must not be empty');
  else {
    if (description.length > DESCRIPTION_MAX) {
      add(
        'description-too-long',
        'description',
        `must be at most ${DESCRIPTION_MAX} characters, got ${description.length}`,
      );
    }
    if (/[<>]/.test(description)) {
      add('description-angle-brackets', 'description', "contains '<' or '>', which Anthropic's skill packager rejects");
    }
  }

  if ('license' in fields && typeof fields.license !== 'string') {
    error('license', `must be a string, got ${typeName(fields.license)}`);
  }

  if ('compatibility' in fields) {
    const { compatibility } = fields;
    if (typeof compatibility !== 'string') error('compatibility', `must be a string, got ${typeName(compatibility)}`);
    else if (compatibility.length === 0 || compatibility.length > COMPATIBILITY_MAX) {
      error('compatibility', `must be 1 to ${COMPATIBILITY_MAX} characters, got ${compatibility.length}`);
    }
  }

  if ('metadata' in fields) {
    const { metadata } = fields;
    if (!isMapping(metadata)) error('metadata', `must be a mapping of strings, got ${typeName(metadata)}`);
    else {
      for (const [key, value] of Object.entries(metadata)) {
        if (typeof value !== 'string') {
          extension(
            `metadata.${key}`,
            `should be a string, got ${typeName(value)} (read as ${JSON.stringify(String(value))})`,
          );
        }
      }
    }
  }

  if ('allowed-tools' in fields && typeof fields['allowed-tools'] !== 'string') {
    const value = fields['allowed-tools'];
    if (Array.isArray(value) && value.every((tool) => typeof tool === 'string')) {
      extension('allowed-tools', 'should be one space-separated string; a list is a Claude Code extension');
    } else error('allowed-tools', `must be a space-separated string, got ${typeName(value)}`);
  }

  for (const field of Object.keys(fields)) {
    if (SPEC_FIELDS.includes(field)) continue;
    if (BOSUN_FIELDS.includes(field)) {
      add(
        'field-bosun',
        field,
        'is not in the Agent Skills specification (Bosun reads it; strict clients reject the skill)',
      );
    } else if (IGNORED_VENDOR_FIELDS.includes(field)) {
      add('field-vendor', field, 'is not in the Agent Skills specification; Bosun ignores it');
    } else {
      add(
        'field-unknown',
        field,
        `is not in the Agent Skills specification, which allows ${SPEC_FIELDS.join(', ')}; Bosun ignores it`,
      );
    }
  }
  return problems;
}

export function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)}`;
}
