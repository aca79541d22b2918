/**
 * What can be found wrong with a skill, and how grave it is: the one table that `bosun skills lint`, `bosun
 * plugin inspect`, `bosun marketplace inspect`, the skill and plugin loaders and the app's Skills & Plugins table
 * all read, so a finding has the same severity wherever it is reported.
 *
 * The rule: `error` when the skill is left out (it does not load); `warning` when it loads anyway.
 * `specification`: the finding breaks the Agent Skills specification, so strict clients (`skills-ref validate`)
 * reject the skill even where Bosun loads it; `bosun skills lint --strict` fails on those too.
 */
export const FINDINGS = {
  /** No `---` frontmatter at the top: nothing says what the skill is. */
  'frontmatter-missing': { severity: 'error', specification: true },
  /** The frontmatter is not YAML, or not a mapping. */
  'frontmatter-invalid': { severity: 'error', specification: true },
  /** No usable description: the agent could not know when to use the skill. */
  'description-missing': { severity: 'error', specification: true },
  /** The skill file cannot be read. */
  'file-unreadable': { severity: 'error', specification: false },
  /** A path given to check that is no skill, or holds none. */
  'not-a-skill': { severity: 'error', specification: false },
  /** No name, or not a string: the skill loads under its directory's name. */
  'name-missing': { severity: 'warning', specification: true },
  /** Uppercase, too long, characters outside letters, digits and '-': loads under that name. */
  'name-invalid': { severity: 'warning', specification: true },
  /** The name is not its directory's (Claude Code names skills this way): loads under the frontmatter name. */
  'name-directory-mismatch': { severity: 'warning', specification: true },
  /** Two skills of one name: the first is used (or the higher scope's). */
  'name-duplicate': { severity: 'warning', specification: false },
  /** Longer than the specification allows: loads whole. */
  'description-too-long': { severity: 'warning', specification: true },
  /** `<` or `>`, which Anthropic's packager rejects. */
  'description-angle-brackets': { severity: 'warning', specification: false },
  /** `license`, `compatibility`, `metadata` or `allowed-tools` of the wrong type or length: ignored or read as text. */
  'field-invalid': { severity: 'warning', specification: true },
  /** A Claude Code extension of a standard field (a list of `allowed-tools`, non-string metadata values). */
  'field-extension': { severity: 'warning', specification: false },
  /** A field outside the specification that Bosun reads (`triggers`, `inputs`, ...). */
  'field-bosun': { severity: 'warning', specification: true },
  /** A field of another client that Bosun knows and ignores (`argument-hint`, `model`, ...). */
  'field-vendor': { severity: 'warning', specification: true },
  /** A field nobody defines: ignored. */
  'field-unknown': { severity: 'warning', specification: true },
  /** A value containing ': ' that YAML needs quoted: read as a quoted string. */
  'yaml-unquoted-colon': { severity: 'warning', specification: true },
  /** No instructions after the frontmatter. */
  'body-empty': { severity: 'warning', specification: false },
  /** More lines of instructions than the specification recommends. */
  'body-long': { severity: 'warning', specification: false },
} as const satisfies Record<string, { severity: 'error' | 'warning'; specification: boolean }>;

export type FindingId = keyof typeof FINDINGS;

/** A finding about a skill: which rule, about which field (null: the file), said how. */
export interface SkillFinding {
  finding: FindingId;
  field: string | null;
  message: string;
}

export const severityOf = (finding: FindingId): 'error' | 'warning' => FINDINGS[finding].severity;

/** Whether a finding leaves the skill out (loading skips it). */
export const skipsSkill = (finding: FindingId): boolean => FINDINGS[finding].severity === 'error';
