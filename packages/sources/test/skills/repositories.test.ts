import { join } from 'node:path';
import { AgentContext, parse } from '@bosun/protocol';
import { GitCache, loadConversationSkills, loadSkillRepositories } from '@bosun/sources';
import { describe, expect, it, onTestFinished } from 'vitest';
import { TestRepository, serveGitOverHttp } from '../git/support.ts';
import { scratch, validSkill, writeTree } from './support.ts';

/** A root of bare repositories, a cache, and a helper to make `<root>/<name>.git` with skills committed. */
async function gitWorld() {
  const root = await scratch('bosun-skill-repos-');
  const cache = new GitCache({ dir: join(await scratch('bosun-skill-cache-'), 'git') });
  const repository = async (name: string, files: Record<string, string>) => {
    const repo = await TestRepository.create(root, name);
    const sha = await repo.commit(files);
    return { repo, sha };
  };
  /** Loads `repos` as organization skill repositories, in this order. */
  const loadOrganization = (...repos: TestRepository[]) =>
    loadSkillRepositories(
      repos.map((repo) => ({ source: repo.url, scope: 'organization' as const })),
      { git: cache },
    );
  return { root, cache, repository, loadOrganization };
}

const context = (fields: Record<string, unknown>) => parse(AgentContext, fields);
const names = (loaded: { skills: { name: string }[] }) => loaded.skills.map((skill) => skill.name);

describe('organization and user skill repositories', () => {
  it('loads skills/<name>/SKILL.md of a bare repository by file:// URL, recording the commit', async () => {
    const { repository, loadOrganization } = await gitWorld();
    const { repo, sha } = await repository('acme/.agents', {
      'skills/review/SKILL.md': validSkill('review'),
      'skills/review/references/checklist.md': '- tests',
      'README.md': 'Our skills',
    });
    const loaded = await loadOrganization(repo);
    expect(names(loaded.organization)).toEqual(['review']);
    expect(loaded.organization.problems).toEqual([]);
    expect(loaded.organization.skills[0]).toMatchObject({
      source: { scope: 'organization', origin: `${repo.url}@${sha.slice(0, 12)}` },
      resources: { references: ['references/checklist.md'] },
    });
    expect(loaded.resolved).toEqual([
      { source: repo.url, scope: 'organization', ref: null, url: repo.url, resolved_ref: sha, error: null },
    ]);
  });

  it('resolves <provider>:<owner>/<repo> through a configured provider base URL (bosun-config where dots are forbidden)', async () => {
    const { root, cache, repository } = await gitWorld();
    await repository('acme/bosun-config', { 'skills/deploy/SKILL.md': validSkill('deploy') });
    const loaded = await loadSkillRepositories([{ source: 'gitlab:acme/bosun-config', scope: 'organization' }], {
      git: cache,
      providers: { gitlab: `file://${root}` },
    });
    expect(names(loaded.organization)).toEqual(['deploy']);
    expect(loaded.resolved[0]?.url).toBe(`file://${root}/acme/bosun-config.git`);
  });

  it('fetches a private repository over HTTP with the token the conversation secrets hold (never in messages)', async () => {
    const { root, cache, repository } = await gitWorld();
    await repository('acme/.agents', { 'skills/review/SKILL.md': validSkill('review') });
    const http = await serveGitOverHttp(root, { username: 'x-access-token', password: 'ghp_secret_token' });
    onTestFinished(http.close);
    const repositories = [{ source: 'github:acme/.agents', scope: 'organization' as const }];
    const providers = { github: http.url };
    const denied = await loadSkillRepositories(repositories, { git: cache, providers });
    expect(names(denied.organization)).toEqual([]);
    expect(denied.resolved[0]?.error).toMatch(/^cannot be fetched/);
    const loaded = await loadSkillRepositories(repositories, {
      git: cache,
      providers,
      secrets: { GITHUB_TOKEN: 'ghp_secret_token' },
    });
    expect(names(loaded.organization)).toEqual(['review']);
    expect(JSON.stringify([denied, loaded])).not.toContain('ghp_secret_token');
  });

  it('a repository that cannot be fetched or a bad source is a problem, never a failure; the others load', async () => {
    const { root, cache, repository } = await gitWorld();
    const { repo } = await repository('acme/.agents', { 'skills/review/SKILL.md': validSkill('review') });
    const loaded = await loadSkillRepositories(
      [
        { source: `file://${root}/acme/missing.git`, scope: 'organization' },
        { source: 'not a repository', scope: 'user' },
        { source: repo.url, scope: 'organization', ref: 'no-such-branch' },
        { source: repo.url, scope: 'organization' },
      ],
      { git: cache },
    );
    expect(names(loaded.organization)).toEqual(['review']);
    expect(loaded.resolved.map((r) => r.error === null)).toEqual([false, false, false, true]);
    expect(
      [...loaded.organization.problems, ...loaded.user.problems].map((p) => [p.severity, p.skipped, p.message]),
    ).toEqual([
      ['error', true, expect.stringMatching(/^cannot be fetched: /)],
      ['error', true, expect.stringMatching(/no branch or tag 'no-such-branch'/)],
      ['error', true, expect.stringMatching(/'not a repository' is not a repository/)],
    ]);
  });

  it('loads the recorded commit again after the branch moved; a repository that failed then is not retried', async () => {
    const { root, cache, repository } = await gitWorld();
    const { repo, sha } = await repository('acme/.agents', { 'skills/review/SKILL.md': validSkill('review', 'Old.') });
    const repositories = [
      { source: repo.url, scope: 'organization' as const },
      { source: `file://${root}/acme/later.git`, scope: 'user' as const },
    ];
    const first = await loadSkillRepositories(repositories, { git: cache });
    await repo.commit({ 'skills/review/SKILL.md': validSkill('review', 'New.') });
    await repository('acme/later', { 'skills/late/SKILL.md': validSkill('late') });
    const again = await loadSkillRepositories(repositories, { git: cache, recorded: first.resolved });
    expect(again.organization.skills[0]?.description).toBe('Old.');
    expect(again.resolved[0]?.resolved_ref).toBe(sha);
    expect(names(again.user)).toEqual([]);
    expect(again.user.problems[0]?.message).toMatch(
      /^was not available when the conversation started: cannot be fetched/,
    );
    const fresh = await loadSkillRepositories(repositories, { git: cache });
    expect(fresh.organization.skills[0]?.description).toBe('New.');
    expect(names(fresh.user)).toEqual(['late']);
  });
});

describe('precedence and conflicts', () => {
  it('within a scope the first repository listed wins a name; the other definition is reported with both files', async () => {
    const { repository, loadOrganization } = await gitWorld();
    const { repo: first } = await repository('acme/.agents', {
      'skills/review/SKILL.md': validSkill('review', 'Acme.'),
    });
    const { repo: second } = await repository('beta/.agents', {
      'skills/review/SKILL.md': validSkill('review', 'Beta.'),
      'skills/other/SKILL.md': validSkill('other'),
    });
    const loaded = await loadOrganization(first, second);
    expect(loaded.organization.skills.map((s) => [s.name, s.description])).toEqual([
      ['review', 'Acme.'],
      ['other', 'Does other work. Use when asked for other.'],
    ]);
    const [problem] = loaded.organization.problems;
    expect(problem).toMatchObject({ severity: 'warning', skipped: true });
    expect(problem?.file).toMatch(/skills\/review\/SKILL\.md$/);
    expect(problem?.message).toMatch(/^skill 'review' is shadowed by .*skills\/review\/SKILL\.md, which is used$/);
  });

  it('a name defined in both the current and the legacy .bosun repository is an error naming both files; the current one is used', async () => {
    const { repository, loadOrganization } = await gitWorld();
    const { repo: legacy, sha: legacySha } = await repository('acme/.bosun', {
      'skills/review/SKILL.md': validSkill('review', 'Legacy.'),
      'skills/old-only/SKILL.md': validSkill('old-only'),
    });
    const { repo: current, sha: currentSha } = await repository('acme/.agents', {
      'skills/review/SKILL.md': validSkill('review', 'Current.'),
    });
    // Listed legacy first: the current repository still wins.
    const loaded = await loadOrganization(legacy, current);
    expect(loaded.organization.skills.map((s) => [s.name, s.description])).toEqual([
      ['review', 'Current.'],
      ['old-only', 'Does old-only work. Use when asked for old-only.'],
    ]);
    expect(loaded.organization.problems).toHaveLength(1);
    const [problem] = loaded.organization.problems;
    expect(problem).toMatchObject({ severity: 'error', field: 'name', skipped: true });
    expect(problem?.file).toContain(join('commits', legacySha, 'skills/review/SKILL.md'));
    expect(problem?.message).toContain(join('commits', currentSha, 'skills/review/SKILL.md'));
    expect(problem?.message).toContain(join('commits', legacySha, 'skills/review/SKILL.md'));
    expect(problem?.message).toContain("the legacy repository's");
  });

  it('built-in < user < organization < project: a higher scope replaces a lower one; each replacement is reported', async () => {
    const { cache, repository } = await gitWorld();
    const { repo: user } = await repository('me/.agents', {
      'skills/write-skill/SKILL.md': validSkill('write-skill', 'User version.'),
      'skills/review/SKILL.md': validSkill('review', 'User review.'),
      'skills/mine/SKILL.md': validSkill('mine', 'User only.'),
    });
    const { repo: org } = await repository('acme/.agents', {
      'skills/review/SKILL.md': validSkill('review', 'Org review.'),
      'skills/deploy/SKILL.md': validSkill('deploy', 'Org deploy.'),
    });
    const workspace = await scratch();
    await writeTree(workspace, { '.agents/skills/deploy/SKILL.md': validSkill('deploy', 'Project deploy.') });
    const loaded = await loadConversationSkills({
      workspace,
      git: cache,
      context: context({
        load_builtin_skills: true,
        skill_repositories: [
          { source: org.url, scope: 'organization' },
          { source: user.url, scope: 'user' },
        ],
      }),
    });
    expect(loaded.skills.map((s) => [s.name, s.source.scope, s.description])).toEqual([
      ['write-skill', 'user', 'User version.'],
      ['mine', 'user', 'User only.'],
      ['review', 'organization', 'Org review.'],
      ['deploy', 'project', 'Project deploy.'],
    ]);
    expect(loaded.sources).toEqual({ user: 2, organization: 1, project: 1 });
    expect(loaded.problems.map((p) => [p.severity, p.message.replace(/ \(.*?\)/g, '')])).toEqual([
      ['info', "builtin skill 'write-skill' is overridden by user skill 'write-skill'"],
      ['info', "user skill 'review' is overridden by organization skill 'review'"],
      ['info', "organization skill 'deploy' is overridden by project skill 'deploy'"],
    ]);
  });

  it('disabled_skills leaves a skill out whatever its scope, and says so', async () => {
    const workspace = await scratch();
    await writeTree(workspace, {
      'AGENTS.md': 'Rules.',
      '.agents/skills/review/SKILL.md': validSkill('review'),
    });
    const loaded = await loadConversationSkills({
      workspace,
      context: context({ load_builtin_skills: true, disabled_skills: ['review', 'write-skill'] }),
    });
    expect(names(loaded)).toEqual(['agents']);
    expect(loaded.problems.map((p) => p.message)).toEqual([
      "skill 'write-skill' is disabled (agent_context.disabled_skills)",
      "skill 'review' is disabled (agent_context.disabled_skills)",
    ]);
  });

  it('loads the project by default and nothing else; built-in skills only when asked', async () => {
    const workspace = await scratch();
    await writeTree(workspace, { '.agents/skills/review/SKILL.md': validSkill('review') });
    expect(names(await loadConversationSkills({ workspace }))).toEqual(['review']);
    expect(
      names(await loadConversationSkills({ workspace, context: context({ load_project_skills: false }) })),
    ).toEqual([]);
    const withBuiltin = await loadConversationSkills({ workspace, context: context({ load_builtin_skills: true }) });
    expect(withBuiltin.skills.map((s) => [s.name, s.source.scope])).toEqual([
      ['write-skill', 'builtin'],
      ['review', 'project'],
    ]);
    expect(withBuiltin.problems).toEqual([]);
  });
});
