import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { TestRepository, serveGitOverHttp, tempDir } from '../../sources/test/git/support.ts';
import { call } from './support/http.ts';
import { startTestServer } from './support/server.ts';

interface SkillsBody {
  skills: Record<string, unknown>[];
  sources: Record<string, number>;
  diagnostics: { file: string; field: string | null; severity: string; message: string; skipped?: boolean }[];
  repositories: Record<string, unknown>[];
}

async function scratch(): Promise<string> {
  const { dir, cleanup } = await tempDir('bosun-skills-route-');
  onTestFinished(cleanup);
  return dir;
}

async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

const skillMd = (name: string, description: string, extra = '') =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\nInstructions of ${name}.\n`;

async function server(options: Parameters<typeof startTestServer>[0] = {}) {
  const started = await startTestServer(options);
  onTestFinished(started.close);
  return started;
}

const post = (url: string, json: unknown) => call<SkillsBody>(url, '/api/skills', { method: 'POST', json });

describe('POST /api/skills', () => {
  it("answers OpenHands' shape: SkillInfo per skill of the project, counts per source, diagnostics", async () => {
    const { url } = await server();
    const project = await scratch();
    await writeTree(project, {
      'AGENTS.md': 'Use pnpm.',
      '.agents/skills/pdf-tools/SKILL.md': skillMd('pdf-tools', 'Extract text from PDFs.'),
      '.agents/skills/k8s/SKILL.md': skillMd('k8s', 'Clusters.', 'triggers: [kubectl]\n'),
      '.agents/skills/deploy.md': '---\ntriggers: [deploy]\n---\nDeploy with make.',
      '.agents/skills/broken/SKILL.md': '---\nname: broken\n---\n',
    });
    const reply = await post(url, { project_dir: project });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.skills).toEqual([
      {
        name: 'agents',
        type: 'repo',
        content: 'Use pnpm.',
        triggers: [],
        source: join(project, 'AGENTS.md'),
        description: null,
        is_agentskills_format: false,
        disable_model_invocation: true,
        scope: 'project',
        origin: 'repository',
        origin_source: project,
        commit: null,
      },
      expect.objectContaining({ name: 'k8s', type: 'agentskills', triggers: ['kubectl'], is_agentskills_format: true }),
      expect.objectContaining({
        name: 'pdf-tools',
        type: 'agentskills',
        description: 'Extract text from PDFs.',
        content: 'Instructions of pdf-tools.',
        source: join(project, '.agents/skills/pdf-tools/SKILL.md'),
      }),
      expect.objectContaining({
        name: 'deploy',
        type: 'knowledge',
        triggers: ['deploy'],
        is_agentskills_format: false,
      }),
    ]);
    expect(reply.body.sources).toEqual({ sandbox: 0, public: 0, builtin: 0, user: 0, org: 0, project: 4 });
    expect(reply.body.diagnostics).toEqual([
      expect.objectContaining({
        file: join(project, '.agents/skills/broken/SKILL.md'),
        field: 'description',
        skipped: true,
      }),
      expect.objectContaining({
        file: join(project, '.agents/skills/k8s/SKILL.md'),
        field: 'triggers',
        severity: 'warning',
      }),
      expect.objectContaining({
        file: 'public',
        severity: 'info',
        message: expect.stringContaining('no network source'),
      }),
    ]);
  });

  it('loads organization repositories from org_configs (a pre-authenticated URL, never shown) and skill_repositories through the configured provider', async () => {
    const repos = await scratch();
    const org = await TestRepository.create(repos, 'acme/.agents');
    const orgSha = await org.commit({ 'skills/review/SKILL.md': skillMd('review', 'Review code.') });
    const user = await TestRepository.create(repos, 'me/.agents');
    const userSha = await user.commit({ 'skills/mine/SKILL.md': skillMd('mine', 'Mine.') });
    const http = await serveGitOverHttp(repos, { username: 'oauth2', password: 'glpat-very-secret' });
    onTestFinished(http.close);
    const { url } = await server({ gitProviders: { github: `file://${repos}` } });
    const host = http.url.replace('http://', '');
    const reply = await post(url, {
      load_public: false,
      load_project: false,
      org_configs: [
        {
          repository: 'acme/app',
          provider: 'gitlab',
          org_repo_url: `http://oauth2:glpat-very-secret@${host}/acme/.agents.git`,
          org_name: 'acme',
        },
      ],
      skill_repositories: [{ source: 'github:me/.agents', scope: 'user' }],
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.skills.map((s) => [s.name, s.scope])).toEqual([
      ['mine', 'user'],
      ['review', 'organization'],
    ]);
    expect(reply.body.skills.map((s) => [s.origin, s.origin_source, s.commit])).toEqual([
      ['user_repository', 'github:me/.agents', userSha],
      ['organization_repository', `http://***@${host}/acme/.agents.git`, orgSha],
    ]);
    expect(reply.body.sources).toMatchObject({ user: 1, org: 1, project: 0 });
    expect(reply.body.diagnostics).toEqual([]);
    expect(reply.body.repositories).toEqual([
      expect.objectContaining({
        source: 'github:me/.agents',
        url: `file://${repos}/me/.agents.git`,
        resolved_ref: userSha,
      }),
      expect.objectContaining({ source: `http://***@${host}/acme/.agents.git`, error: null }),
    ]);
    expect(reply.text).not.toContain('glpat-very-secret');
    expect(http.requests.every((r) => r.authorized)).toBe(true);

    const withoutOrg = await post(url, {
      load_org: false,
      load_user: false,
      skill_repositories: [{ source: 'github:me/.agents', scope: 'user' }],
    });
    expect(withoutOrg.body.skills).toEqual([]);
  });

  it('reports a repository that cannot be fetched as a diagnostic (200)', async () => {
    const { url } = await server();
    const reply = await post(url, {
      load_public: false,
      load_project: false,
      org_config: { repository: 'a/b', provider: 'github', org_repo_url: 'file:///nowhere/.agents.git', org_name: 'a' },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.skills).toEqual([]);
    expect(reply.body.diagnostics).toEqual([
      expect.objectContaining({ file: 'file:///nowhere/.agents.git', severity: 'error', skipped: true }),
    ]);
  });

  it('turns sandbox_config into an always-on skill, loads built-ins when asked, honours disabled_skills', async () => {
    const { url } = await server();
    const reply = await post(url, {
      load_public: false,
      load_builtin: true,
      sandbox_config: { exposed_urls: [{ name: 'WORKER_1', url: 'http://localhost:12000', port: 12000 }] },
      disabled_skills: ['nothing-here'],
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.skills.map((s) => [s.name, s.type, s.scope])).toEqual([
      ['work_hosts', 'repo', 'sandbox'],
      ['write-skill', 'agentskills', 'builtin'],
    ]);
    expect(String(reply.body.skills[0]?.content)).toContain('* http://localhost:12000 (port 12000, WORKER_1)');
    expect(reply.body.sources).toMatchObject({ sandbox: 1, builtin: 1 });
    const disabled = await post(url, {
      load_public: false,
      load_project: false,
      load_builtin: true,
      disabled_skills: ['write-skill'],
    });
    expect(disabled.body.skills).toEqual([]);
    expect(disabled.body.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'info',
        message: "skill 'write-skill' is disabled (agent_context.disabled_skills)",
      }),
    ]);
  });

  it('says why no project skill loaded when project_dir is missing (load_project false asks for none)', async () => {
    const { url } = await server();
    const missing = await post(url, { load_public: false });
    expect(missing.status, missing.text).toBe(200);
    expect(missing.body.diagnostics).toEqual([
      {
        file: 'project',
        field: 'project_dir',
        severity: 'info',
        message: expect.stringMatching(/^project skills are not loaded: no project_dir was given/),
      },
    ]);
    const none = await post(url, { load_public: false, load_project: false });
    expect(none.body.diagnostics).toEqual([]);
  });

  it('answers 422 for unknown fields and wrong types', async () => {
    const { url } = await server();
    const reply = await post(url, { load_public: 'yes', extra: 1, org_configs: [{ repository: 'a/b' }] });
    expect(reply.status).toBe(422);
    const locs = (reply.body as unknown as { detail: { loc: unknown[] }[] }).detail.map((d) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.load_public', 'body.extra', 'body.org_configs.0.provider']));
  });

  it('is in the OpenAPI document with its request and response components', async () => {
    const { url } = await server();
    const doc = (await call<Record<string, Record<string, Record<string, unknown>>>>(url, '/openapi.json')).body;
    expect(doc.paths?.['/api/skills']?.post).toBeDefined();
    for (const name of ['SkillsRequest', 'SkillsResponse', 'SkillInfo', 'OrgConfig', 'SkillDiagnostic']) {
      expect(doc.components?.schemas).toHaveProperty(name);
    }
  });
});
