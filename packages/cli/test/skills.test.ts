import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TestRepository } from '../../sources/test/git/support.ts';
import { runCli } from './io.ts';
import { scratchDir } from './scratch.ts';

const scratch = scratchDir('bosun-skills-lint-');

async function tree(name: string, files: Record<string, string>): Promise<string> {
  const dir = join(scratch.dir, name);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}

const skill = (front: string, body = 'Steps.') => `---\n${front}\n---\n${body}\n`;

describe('bosun skills lint', () => {
  it('exits 0 for valid skills found under a repository (.agents/skills), warnings allowed', async () => {
    const repo = await tree('good', {
      '.agents/skills/pdf-tools/SKILL.md': skill('name: pdf-tools\ndescription: Extract text from PDFs.'),
      '.agents/skills/deploy/SKILL.md': skill('name: deploy\ndescription: Deploy.\ntriggers: [deploy]'),
    });
    const result = await runCli(['skills', 'lint', repo]);
    expect(result.stdout).toBe(
      `${repo}/.agents/skills/deploy/SKILL.md: triggers: is not in the Agent Skills specification (Bosun reads it; strict clients reject the skill) [warning]\n`,
    );
    expect(result.stderr).toBe('2 skills checked, 0 errors, 1 warning\n');
    expect(result.code).toBe(0);
  });

  it('prints every problem as file: field: message and exits 1 on errors (skills that do not load)', async () => {
    const dir = await tree('bad', {
      'Bad_Name/SKILL.md': skill('name: Bad_Name\ndescription: ""\ncolour: blue'),
      'broken/SKILL.md': '---\nname: broken\ndescription: [unclosed\n---\n',
      'plain/SKILL.md': '# no frontmatter',
    });
    const file = (name: string) => `${dir}/${name}/SKILL.md`;
    const result = await runCli(['skills', 'lint', dir]);
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n').filter(Boolean)).toEqual([
      `${file('Bad_Name')}: name: must be lowercase, got 'Bad_Name' [warning]`,
      `${file('Bad_Name')}: name: may contain only letters, digits and '-', got "_" [warning]`,
      `${file('Bad_Name')}: description: must not be empty [error]`,
      `${file('Bad_Name')}: colour: is not in the Agent Skills specification, which allows name, description, license, compatibility, metadata, allowed-tools; Bosun ignores it [warning]`,
      expect.stringMatching(new RegExp(`^${file('broken')}: \\(file\\): invalid YAML: .* \\[error\\]$`)),
      `${file('plain')}: (file): has no frontmatter: it must start with '---', name and description [error]`,
    ]);
    expect(result.stderr).toBe('3 skills checked, 3 errors, 3 warnings\n');
  });

  it('checks one SKILL.md or one skill directory, and names both files of a name defined twice', async () => {
    const one = await tree('one', { 'review/SKILL.md': skill('name: review\ndescription: Review code.') });
    const two = await tree('two', { 'skills/review/SKILL.md': skill('name: review\ndescription: Review code too.') });
    expect((await runCli(['skills', 'lint', join(one, 'review/SKILL.md')])).code).toBe(0);
    const both = await runCli(['skills', 'lint', join(one, 'review'), two]);
    expect(both.code).toBe(0);
    expect(both.stdout).toBe(
      `${two}/skills/review/SKILL.md: name: skill 'review' is also defined in ${one}/review/SKILL.md, which is used [warning]\n`,
    );
  });

  it('prints JSON with --json, each problem with its finding', async () => {
    const dir = await tree('json', { 'x/SKILL.md': skill('name: y\ndescription: d') });
    const result = await runCli(['skills', 'lint', '--json', dir]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      files: [`${dir}/x/SKILL.md`],
      problems: [
        {
          file: `${dir}/x/SKILL.md`,
          field: 'name',
          severity: 'warning',
          message: "must match the skill's directory name 'x', got 'y'",
          finding: 'name-directory-mismatch',
        },
      ],
    });
  });

  it('rates a skill that loads as plugin inspection does (warnings, exit 0); --strict fails it', async () => {
    // As in anthropics/skills and claude-plugins-official: a name that is not the directory's, a vendor field.
    const files = {
      '.claude-plugin/plugin.json': JSON.stringify({ name: 'docs' }),
      'skills/pdf/SKILL.md': skill('name: pdf-processing\ndescription: PDF files.\nversion: 1.0.0'),
    };
    const plugin = await tree('plugin', files);
    const repository = await TestRepository.create(join(scratch.dir, 'remotes'), 'acme/docs');
    await repository.commit(files);
    const lint = await runCli(['skills', 'lint', join(plugin, 'skills')]);
    expect(lint.code).toBe(0);
    const linted = lint.stdout.split('\n').filter(Boolean);
    expect(linted).toEqual([
      `${plugin}/skills/pdf/SKILL.md: name: must match the skill's directory name 'pdf', got 'pdf-processing' [warning]`,
      `${plugin}/skills/pdf/SKILL.md: version: is not in the Agent Skills specification; Bosun ignores it [warning]`,
    ]);
    const cache = join(scratch.dir, 'cache');
    const inspect = await runCli(['plugin', 'inspect', repository.url, '--json', '--cache', cache]);
    const inspected = JSON.parse(inspect.stdout) as { problems: { severity: string; path: string; message: string }[] };
    expect(inspected.problems.map((p) => `${p.path}: ${p.message} [${p.severity}]`)).toEqual(
      linted.map((line) => line.slice(`${plugin}/`.length)),
    );
    expect((await runCli(['skills', 'lint', '--strict', join(plugin, 'skills')])).code).toBe(1);
  });

  it('exits 2 for a missing path, no path, or an unknown subcommand; 1 for a directory without skills', async () => {
    const missing = await runCli(['skills', 'lint', join(scratch.dir, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`${join(scratch.dir, 'nope')}: cannot read: ENOENT`);
    expect((await runCli(['skills', 'lint'])).stderr).toContain('no path given');
    expect((await runCli(['skills', 'frob'])).code).toBe(2);
    const empty = await tree('empty', { 'README.md': 'nothing' });
    const none = await runCli(['skills', 'lint', empty]);
    expect(none.code).toBe(1);
    expect(none.stdout).toBe(`${empty}: (file): holds no SKILL.md [error]\n`);
  });

  it('lints the skill Bosun ships without errors', async () => {
    const result = await runCli(['skills', 'lint', join(process.cwd(), 'packages/sources/skills')]);
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
  });
});
