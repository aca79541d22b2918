import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { TestRepository, tempDir } from '../../sources/test/git/support.ts';
import { call } from './support/http.ts';
import { startTestServer } from './support/server.ts';

interface SkillsBody {
  skills: {
    name: string;
    scope: string;
    content: string;
    source: string | null;
    origin?: string;
    origin_source?: string | null;
    commit?: string | null;
  }[];
  sources: Record<string, number>;
  diagnostics: { file: string; severity: string; message: string }[];
}

const skillMd = (name: string, body: string) => `---\nname: ${name}\ndescription: ${body}\n---\n${body}\n`;

describe('POST /api/skills with the plugins a conversation names', () => {
  it('lists their skills and commands (scope plugin, above every other) at the ref given; less the disabled', async () => {
    const { dir, cleanup } = await tempDir('bosun-plugin-skills-');
    onTestFinished(cleanup);
    const repository = await TestRepository.create(join(dir, 'remotes'), 'acme/tools');
    const pinned = await repository.commit({
      'tools/.plugin/plugin.json': JSON.stringify({ name: 'tools' }),
      'tools/skills/docker/SKILL.md': skillMd('docker', 'Docker, the plugin way.'),
      'tools/skills/hidden/SKILL.md': skillMd('hidden', 'Turned off.'),
      'tools/commands/deploy.md': 'Deploy it.\n',
    });
    // The branch moves on after the conversation started: the listing shows the commit it loaded.
    await repository.commit({ 'tools/skills/docker/SKILL.md': skillMd('docker', 'A later commit.') });
    const project = join(dir, 'project');
    await mkdir(join(project, '.agents', 'skills'), { recursive: true });
    await writeFile(join(project, '.agents', 'skills', 'docker.md'), '---\nname: docker\n---\nThe project way.\n');
    await writeFile(join(project, '.agents', 'skills', 'notes.md'), '---\nname: notes\n---\nTake notes.\n');
    const started = await startTestServer({ gitProviders: { github: `file://${join(dir, 'remotes')}` } });
    onTestFinished(started.close);

    const reply = await call<SkillsBody>(started.url, '/api/skills', {
      method: 'POST',
      json: {
        load_public: false,
        project_dir: project,
        disabled_skills: ['hidden'],
        plugins: [{ source: 'github:acme/tools', ref: pinned, repo_path: 'tools' }, { source: 'github:acme/missing' }],
      },
    });
    expect(reply.status, reply.text).toBe(200);
    const skills = Object.fromEntries(reply.body.skills.map((skill) => [skill.name, skill]));
    // Plugin skills are named by their plugin: the project's `docker` and the plugin's `tools:docker` are two.
    expect(Object.keys(skills).sort()).toEqual(['docker', 'notes', 'tools:deploy', 'tools:docker']);
    expect(skills['tools:docker']).toMatchObject({
      scope: 'plugin',
      content: 'Docker, the plugin way.',
      origin: 'plugin',
      origin_source: 'github:acme/tools',
      commit: pinned,
    });
    expect(skills.notes).toMatchObject({ origin: 'repository', origin_source: project, commit: null });
    expect(skills['tools:docker']?.source).toMatch(/tools\/skills\/docker\/SKILL\.md$/);
    expect(skills.docker).toMatchObject({ scope: 'project' });
    expect(skills['tools:deploy']).toMatchObject({ scope: 'plugin', content: expect.stringContaining('Deploy it.') });
    expect(skills.notes).toMatchObject({ scope: 'project' });
    expect(reply.body.sources).toMatchObject({ plugin: 2, project: 2 });
    expect(reply.body.diagnostics).toContainEqual(
      expect.objectContaining({ severity: 'error', file: 'plugin missing (github:acme/missing)' }),
    );

    const bad = await call<{ detail: { loc: unknown[] }[] }>(started.url, '/api/skills', {
      method: 'POST',
      json: { plugins: [{ source: 'github:acme/tools', repo_path: '../outside' }] },
    });
    expect(bad.status, bad.text).toBe(422);
    expect(bad.body.detail[0]?.loc).toEqual(['body', 'plugins', 0, 'repo_path']);
  });
});
