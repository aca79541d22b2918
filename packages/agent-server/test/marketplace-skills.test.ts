import { describe, expect, it, onTestFinished } from 'vitest';
import { TestRepository, tempDir } from '../../sources/test/git/support.ts';
import { call } from './support/http.ts';
import { startTestServer } from './support/server.ts';

interface SkillsBody {
  skills: { name: string; scope: string; triggers: string[]; origin: string; origin_source: string; commit: string }[];
  sources: Record<string, number>;
  diagnostics: { file: string; severity: string; message: string }[];
}

const skillMd = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\nInstructions of ${name}.\n`;

describe('POST /api/skills with registered marketplaces', () => {
  it('lists the skills and commands of auto-loaded plugins (lowest precedence) and every error', async () => {
    const { dir: repos, cleanup } = await tempDir('bosun-marketplace-skills-');
    onTestFinished(cleanup);
    const market = await TestRepository.create(repos, 'acme/market');
    const sha = await market.commit({
      '.claude-plugin/marketplace.json': JSON.stringify({
        name: 'acme',
        owner: { name: 'Acme' },
        plugins: [
          { name: 'review', source: './review' },
          { name: 'other', source: './other' },
          { name: 'packaged', source: { source: 'npm', package: 'x' } },
        ],
      }),
      'review/skills/code-review/SKILL.md': skillMd('code-review', 'Review code (marketplace).'),
      'review/commands/lint.md': 'Lint everything.\n',
      'other/skills/other/SKILL.md': skillMd('other', 'Not auto-loaded.'),
    });
    const started = await startTestServer({ gitProviders: { github: `file://${repos}` } });
    onTestFinished(started.close);
    const registration = { name: 'acme', source: 'github:acme/market', auto_load: ['review', 'packaged', 'gone'] };
    const reply = await call<SkillsBody>(started.url, '/api/skills', {
      method: 'POST',
      json: {
        load_public: false,
        load_project: false,
        registered_marketplaces: [registration, { ...registration, name: 'off', auto_load: false }],
      },
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.skills.map((s) => [s.name, s.scope, s.triggers])).toEqual([
      ['review:code-review', 'plugin', []],
      ['review:lint', 'plugin', ['/review:lint']],
    ]);
    // Each names the marketplace and plugin it came from, at the marketplace's commit.
    expect(reply.body.skills.map((s) => [s.origin, s.origin_source, s.commit])).toEqual([
      ['marketplace', 'acme: review', sha],
      ['marketplace', 'acme: review', sha],
    ]);
    expect(reply.body.sources).toMatchObject({ plugin: 2, project: 0 });
    expect(reply.body.diagnostics.map((d) => `${d.severity} ${d.file}: ${d.message}`)).toEqual([
      "error marketplace acme: auto_load names 'gone', which the marketplace does not list",
      "error marketplace acme: plugin packaged: .claude-plugin/marketplace.json: plugins[2]: source type 'npm' is not a Git repository; Bosun loads only Git-based plugins",
    ]);
  });
});
