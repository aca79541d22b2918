import { parseFrontmatter, splitFrontmatter } from '@bosun/sources';
import { describe, expect, it } from 'vitest';
import { parseAgentSkill, parseLegacySkill } from '../../src/skills/parse.ts';
import { skillMd } from './support.ts';

const source = { scope: 'project' as const, origin: '/repo' };

function agentSkill(text: string, directoryName = 'pdf-tools') {
  return parseAgentSkill({
    file: `/repo/.agents/skills/${directoryName}/SKILL.md`,
    text,
    source,
    dir: `/repo/.agents/skills/${directoryName}`,
    directoryName,
    resources: null,
  });
}

const brief = (problems: { field: string | null; severity: string; message: string }[]) =>
  problems.map((p) => `${p.severity} ${p.field ?? '(file)'}: ${p.message}`);

describe('frontmatter', () => {
  it('splits the frontmatter from the body (BOM and CRLF tolerated); no opening --- means no frontmatter', () => {
    expect(splitFrontmatter('\uFEFF---\r\nname: a\r\n---\r\nBody\r\n')).toEqual({
      frontmatter: 'name: a',
      body: 'Body\n',
    });
    expect(splitFrontmatter('# Title\n---\nname: a\n---\n')).toEqual({
      frontmatter: null,
      body: '# Title\n---\nname: a\n---\n',
    });
    expect(splitFrontmatter('---\nname: a\nno end')).toMatchObject({ frontmatter: null });
  });

  it('rejects duplicate keys and a frontmatter that is not a mapping', () => {
    expect(parseFrontmatter('name: a\nname: b')).toMatchObject({ ok: false, error: expect.stringMatching(/unique/) });
    expect(parseFrontmatter('- a\n- b')).toMatchObject({ ok: false, error: expect.stringMatching(/mapping/) });
  });

  it("retries a plain value containing ': ' as a quoted string and says which", () => {
    expect(parseFrontmatter('name: a\ndescription: Use when: the user asks')).toEqual({
      ok: true,
      fields: { name: 'a', description: 'Use when: the user asks' },
      quotedFields: ['description'],
    });
  });
});

describe('SKILL.md against the Agent Skills specification', () => {
  it('loads a valid skill without problems, with every standard field', () => {
    const text = skillMd(
      {
        name: 'pdf-tools',
        description: 'Extract text from PDF files. Use when the user works with PDFs.',
        license: 'MIT',
        compatibility: 'Requires poppler-utils',
        'allowed-tools': 'Bash(pdftotext:*) Read',
        metadata: '\n  author: acme\n  version: "1.0"',
      },
      '# PDF\n\nRun scripts/extract.py.',
    );
    const { skill, problems } = agentSkill(text);
    expect(problems).toEqual([]);
    expect(skill).toMatchObject({
      name: 'pdf-tools',
      format: 'agentskills',
      description: 'Extract text from PDF files. Use when the user works with PDFs.',
      content: '# PDF\n\nRun scripts/extract.py.',
      license: 'MIT',
      compatibility: 'Requires poppler-utils',
      allowedTools: ['Bash(pdftotext:*)', 'Read'],
      metadata: { author: 'acme', version: '1.0' },
      trigger: null,
      disableModelInvocation: false,
      userInvocable: true,
    });
  });

  it.each([
    ['PDF-Tools', 'must be lowercase'],
    ['-pdf', "must not start or end with '-'"],
    ['pdf--tools', "must not contain '--'"],
    ['pdf_tools', 'may contain only letters, digits and \'-\', got "_"'],
    ['a'.repeat(65), 'must be at most 64 characters, got 65'],
  ])('reports the name %j (%s) as a warning and still loads the skill under it', (name, message) => {
    const { skill, problems } = agentSkill(skillMd({ name, description: 'Does things.' }), name);
    expect(brief(problems)).toContainEqual(expect.stringContaining(`warning name: ${message}`));
    expect(skill?.name).toBe(name);
  });

  it('accepts Unicode letters in names, as skills-ref does', () => {
    expect(agentSkill(skillMd({ name: 'données', description: 'x' }), 'données').problems).toEqual([]);
  });

  it('reports a name that differs from its directory, and loads it under the frontmatter name', () => {
    const { skill, problems } = agentSkill(skillMd({ name: 'pdf', description: 'Does things.' }), 'pdf-tools');
    expect(brief(problems)).toEqual(["warning name: must match the skill's directory name 'pdf-tools', got 'pdf'"]);
    expect(skill?.name).toBe('pdf');
  });

  it('reports a missing name and loads the skill under its directory name', () => {
    const { skill, problems } = agentSkill(skillMd({ description: 'Does things.' }));
    expect(brief(problems)).toEqual(["warning name: is required (loaded as 'pdf-tools', the directory name)"]);
    expect(skill?.name).toBe('pdf-tools');
  });

  it('skips a skill without a description, saying so', () => {
    const missing = agentSkill(skillMd({ name: 'pdf-tools' }));
    expect(missing.skill).toBeNull();
    expect(missing.problems).toEqual([
      expect.objectContaining({ field: 'description', severity: 'error', message: 'is required', skipped: true }),
    ]);
    expect(agentSkill(skillMd({ name: 'pdf-tools', description: '""' })).problems[0]).toMatchObject({
      message: 'must not be empty',
      skipped: true,
    });
  });

  it('skips a file without frontmatter or with invalid YAML', () => {
    expect(agentSkill('# Just text').problems).toEqual([
      expect.objectContaining({
        field: null,
        severity: 'error',
        skipped: true,
        message: expect.stringMatching(/no frontmatter/),
      }),
    ]);
    const bad = agentSkill('---\nname: [a\n---\nx');
    expect(bad.skill).toBeNull();
    expect(bad.problems[0]).toMatchObject({
      severity: 'error',
      skipped: true,
      message: expect.stringMatching(/^invalid YAML/),
    });
  });

  it('reports lengths and types of the other fields; a too long description still loads', () => {
    const { skill, problems } = agentSkill(
      skillMd({
        name: 'pdf-tools',
        description: 'x'.repeat(1025),
        compatibility: 'y'.repeat(501),
        license: '3',
        metadata: '[a]',
        'allowed-tools': '\n  - Read\n  - Bash',
      }),
    );
    expect(brief(problems)).toEqual([
      'warning description: must be at most 1024 characters, got 1025',
      'warning license: must be a string, got number 3',
      'warning compatibility: must be 1 to 500 characters, got 501',
      'warning metadata: must be a mapping of strings, got a list',
      'warning allowed-tools: should be one space-separated string; a list is a Claude Code extension',
    ]);
    expect(skill?.allowedTools).toEqual(['Read', 'Bash']);
  });

  it('flags fields outside the specification, each a warning (the skill loads)', () => {
    const { skill, problems } = agentSkill(
      skillMd({
        name: 'pdf-tools',
        description: 'Does things.',
        triggers: '\n  - pdf',
        'argument-hint': '"[file]"',
        colour: 'blue',
      }),
    );
    expect(brief(problems)).toEqual([
      'warning triggers: is not in the Agent Skills specification (Bosun reads it; strict clients reject the skill)',
      'warning argument-hint: is not in the Agent Skills specification; Bosun ignores it',
      'warning colour: is not in the Agent Skills specification, which allows name, description, license, compatibility, metadata, allowed-tools; Bosun ignores it',
    ]);
    expect(skill?.trigger).toEqual({ type: 'keyword', keywords: ['pdf'] });
  });

  it('warns about a description with < or >, an empty body, a quoted value and non-string metadata', () => {
    const { problems } = agentSkill('---\nname: pdf-tools\ndescription: Use when: <pdf>\nmetadata:\n  n: 3\n---\n');
    expect(brief(problems)).toEqual([
      "warning description: contains ': ' and must be quoted in YAML; it was read as a quoted string",
      "warning description: contains '<' or '>', which Anthropic's skill packager rejects",
      'warning metadata.n: should be a string, got number 3 (read as "3")',
      'warning (file): has no instructions after the frontmatter',
    ]);
  });

  it('reads inputs as a task trigger with /<name>, and disable-model-invocation / user-invocable', () => {
    const { skill } = agentSkill(
      '---\nname: pdf-tools\ndescription: d\ninputs:\n  - name: FILE\n    description: the PDF\ndisable-model-invocation: true\nuser-invocable: false\n---\nBody',
    );
    expect(skill).toMatchObject({
      trigger: { type: 'task', triggers: ['/pdf-tools'], inputs: [{ name: 'FILE', description: 'the PDF' }] },
      disableModelInvocation: true,
      userInvocable: false,
    });
  });
});

describe('legacy skills (loose .md files)', () => {
  const legacy = (text: string) =>
    parseLegacySkill({ file: '/repo/.agents/skills/deploy.md', text, source, stem: 'deploy' });

  it('are named after the file, always on without triggers, keyword-triggered with them', () => {
    expect(legacy('Deploy with make deploy.').skill).toMatchObject({
      name: 'deploy',
      format: 'legacy',
      trigger: null,
      content: 'Deploy with make deploy.',
    });
    expect(legacy('---\nname: shipping\ntriggers: [deploy, release]\n---\nShip it.').skill).toMatchObject({
      name: 'shipping',
      trigger: { type: 'keyword', keywords: ['deploy', 'release'] },
    });
  });

  it('are skipped with the reason when their frontmatter is not YAML', () => {
    expect(legacy('---\ntriggers: [a\n---\nx')).toMatchObject({
      skill: null,
      problems: [{ severity: 'error', skipped: true, message: expect.stringMatching(/^invalid YAML/) }],
    });
  });
});
