import { execFileSync } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { loadProjectSkills, loadSkillDirectory } from '@bosun/sources';
import { describe, expect, it } from 'vitest';
import { git } from '../git/support.ts';
import { scratch, skillMd, validSkill, writeTree } from './support.ts';

const project = { scope: 'project' as const, origin: 'test' };

describe('loadSkillDirectory', () => {
  it('loads <name>/SKILL.md skills with their resources listed, and loose .md files as legacy skills', async () => {
    const dir = await scratch();
    await writeTree(dir, {
      'pdf-tools/SKILL.md': validSkill('pdf-tools'),
      'pdf-tools/scripts/extract.py': 'print(1)',
      'pdf-tools/references/FORMS.md': '# Forms',
      'pdf-tools/references/deep/more.md': 'more',
      'pdf-tools/assets/template.txt': 't',
      'pdf-tools/assets/.hidden': 'h',
      'pdf-tools/NOTES.md': 'not a skill, not a resource',
      'deploy.md': '---\ntriggers: [deploy]\n---\nDeploy with make.',
      'README.md': '# About these skills',
    });
    const { skills, problems } = await loadSkillDirectory(dir, project);
    expect(problems).toEqual([]);
    expect(skills.map((s) => [s.name, s.format])).toEqual([
      ['pdf-tools', 'agentskills'],
      ['deploy', 'legacy'],
    ]);
    expect(skills[0]).toMatchObject({
      file: join(dir, 'pdf-tools/SKILL.md'),
      dir: join(dir, 'pdf-tools'),
      resources: {
        scripts: ['scripts/extract.py'],
        references: ['references/FORMS.md', 'references/deep/more.md'],
        assets: ['assets/template.txt'],
      },
      source: project,
    });
  });

  it('has no skills for a directory that does not exist', async () => {
    expect(await loadSkillDirectory(join(await scratch(), 'nope'), project)).toEqual({ skills: [], problems: [] });
  });

  it('reports every skill it leaves out, with the reason, and loads the rest', async () => {
    const dir = await scratch();
    await writeTree(dir, {
      'good/SKILL.md': validSkill('good'),
      'no-description/SKILL.md': skillMd({ name: 'no-description' }),
      'broken/SKILL.md': '---\nname: [broken\n---\n',
      'empty-dir/notes.txt': 'x',
      'good.md': 'A legacy skill with a taken name.',
    });
    const { skills, problems } = await loadSkillDirectory(dir, project);
    expect(skills.map((s) => s.name)).toEqual(['good']);
    expect(problems.filter((p) => p.skipped).map((p) => [p.file.slice(dir.length + 1), p.message])).toEqual([
      ['broken/SKILL.md', expect.stringMatching(/^invalid YAML/)],
      ['empty-dir', 'has no SKILL.md, so it is not a skill'],
      ['no-description/SKILL.md', 'is required'],
      ['good.md', `skill 'good' is also defined in ${join(dir, 'good/SKILL.md')}, which is used`],
    ]);
  });

  it('follows a symbolic link to a skill directory and accepts skill.md (with a warning)', async () => {
    const dir = await scratch();
    const elsewhere = await scratch();
    await writeTree(elsewhere, { 'linted/skill.md': validSkill('linted') });
    await mkdir(join(dir, 'skills'));
    await symlink(join(elsewhere, 'linted'), join(dir, 'skills/linted'));
    const { skills, problems } = await loadSkillDirectory(join(dir, 'skills'), project);
    expect(skills.map((s) => s.name)).toEqual(['linted']);
    expect(problems).toEqual([expect.objectContaining({ severity: 'warning', message: 'should be named SKILL.md' })]);
  });
});

describe('loadProjectSkills', () => {
  it('loads AGENTS.md, CLAUDE.md and GEMINI.md as always-on instructions, and .agents/skills', async () => {
    const root = await scratch();
    await writeTree(root, {
      'AGENTS.md': 'Use pnpm.',
      'CLAUDE.md': 'Claude notes.',
      'GEMINI.md': 'Gemini notes.',
      '.agents/skills/review/SKILL.md': validSkill('review'),
    });
    const { skills, problems } = await loadProjectSkills(root);
    expect(problems).toEqual([]);
    expect(skills.map((s) => [s.name, s.format, s.content.slice(0, 12)])).toEqual([
      ['agents', 'instructions', 'Use pnpm.'],
      ['claude', 'instructions', 'Claude notes'],
      ['gemini', 'instructions', 'Gemini notes'],
      ['review', 'agentskills', '# review\n\nIn'],
    ]);
  });

  it('refuses an instruction file that is not a regular file (opening a FIFO blocked forever)', async () => {
    const root = await scratch();
    await writeTree(root, { 'CLAUDE.md': 'Claude notes.' });
    execFileSync('mkfifo', [join(root, 'AGENTS.md')]);
    const { skills, problems } = await loadProjectSkills(root);
    expect(skills.map((s) => s.name)).toEqual(['claude']);
    expect(problems).toEqual([expect.objectContaining({ file: join(root, 'AGENTS.md'), skipped: true })]);
    expect(problems[0]?.message).toMatch(/not a regular file/);
  });

  it('loads a CLAUDE.md linked to (or equal to) AGENTS.md once', async () => {
    const root = await scratch();
    await writeTree(root, { 'AGENTS.md': 'Use pnpm.\n', 'GEMINI.md': 'Use pnpm.' });
    await symlink('AGENTS.md', join(root, 'CLAUDE.md'));
    expect((await loadProjectSkills(root)).skills.map((s) => s.name)).toEqual(['agents']);
  });

  it('reads the root of the Git work tree the workspace is in', async () => {
    const root = await scratch();
    await git(root, 'init', '-q');
    await writeTree(root, { 'AGENTS.md': 'Root rules.', 'packages/app/src/index.ts': '' });
    const loaded = await loadProjectSkills(join(root, 'packages/app'));
    expect(loaded.root).toBe(root);
    expect(loaded.skills.map((s) => s.content)).toEqual(['Root rules.']);
  });

  it('.agents/skills wins over .claude/skills and .openhands/skills (migrating users); the shadowed one is reported', async () => {
    const root = await scratch();
    await writeTree(root, {
      '.agents/skills/review/SKILL.md': validSkill('review', 'The standard one.'),
      '.claude/skills/review/SKILL.md': validSkill('review', 'The Claude one.'),
      '.claude/skills/lint/SKILL.md': validSkill('lint'),
      '.openhands/skills/lint/SKILL.md': validSkill('lint', 'The OpenHands one.'),
      '.openhands/skills/deploy.md': '---\ntriggers: [deploy]\n---\nDeploy.',
    });
    const { skills, problems } = await loadProjectSkills(root);
    expect(skills.map((s) => [s.name, s.file.slice(root.length + 1)])).toEqual([
      ['review', '.agents/skills/review/SKILL.md'],
      ['lint', '.claude/skills/lint/SKILL.md'],
      ['deploy', '.openhands/skills/deploy.md'],
    ]);
    expect(problems.map((p) => [p.severity, p.skipped, p.message])).toEqual([
      ['warning', true, `skill 'review' is shadowed by ${join(root, '.agents/skills/review/SKILL.md')}, which is used`],
      ['warning', true, `skill 'lint' is shadowed by ${join(root, '.claude/skills/lint/SKILL.md')}, which is used`],
    ]);
  });
});
