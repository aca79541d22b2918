import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { TestRepository, serveGitOverHttp, tempDir } from '../../../../packages/sources/test/git/support.ts';

/**
 * A Git host on loopback (`git http-backend` behind a small HTTP server, standing in for GitHub) holding one
 * marketplace repository, `acme/plugins`, with two plugins:
 * - `greeter`: a command (`/greeter:greet`), a skill (`greeter:welcome`), a string parameter `city` defaulting to
 *   `Zürich`, an example, tags `demo` and `greeting` (featured when the app is told so);
 * - `reviewer`: a skill (`reviewer:checklist`), an agent (`critic`), a parameter `depth`, tag `review`.
 * Each skill's and command's body carries a marker the scripted model can match on (`*_MARKER` below).
 */
export interface MarketplaceHost {
  /** The host's base URL: give it to the app as `BOSUN_GIT_GITHUB_URL`. */
  url: string;
  /** The marketplace as a source: `github:acme/plugins`. */
  source: string;
  /** The commit `main` points at. */
  commit: string;
  repository: TestRepository;
  /** The request paths the host was asked for, in order. */
  requests: { path: string }[];
  close(): Promise<void>;
}

export const MARKETPLACE_NAME = 'acme-plugins';
export const GREET_COMMAND_MARKER = 'GREET-COMMAND-BODY';
export const WELCOME_SKILL_MARKER = 'WELCOME-SKILL-BODY';
export const CHECKLIST_SKILL_MARKER = 'CHECKLIST-SKILL-BODY';

/** The files of the marketplace repository (exported so a test can commit a change on top of them). */
export const MARKETPLACE_FILES: Record<string, string> = {
  '.claude-plugin/marketplace.json': JSON.stringify({
    name: MARKETPLACE_NAME,
    owner: { name: 'Acme' },
    plugins: [
      {
        name: 'greeter',
        source: './plugins/greeter',
        description: 'Greets a city, politely.',
        tags: ['demo', 'greeting'],
      },
      { name: 'reviewer', source: './plugins/reviewer', description: 'Reviews a change.', tags: ['review'] },
    ],
  }),
  'plugins/greeter/.claude-plugin/plugin.json': JSON.stringify({
    name: 'greeter',
    version: '1.0.0',
    description: 'Greets a city, politely.',
    entry_command: 'greet',
    parameters: { city: { type: 'string', description: 'Whom to greet', required: true, default: 'Zürich' } },
    examples: [{ title: 'Greet the city', prompt: '/greeter:greet' }],
  }),
  'plugins/greeter/commands/greet.md': `---\ndescription: Greet the city\n---\n${GREET_COMMAND_MARKER}: greet the city.\n`,
  'plugins/greeter/skills/welcome/SKILL.md': `---\nname: welcome\ndescription: How to welcome a visitor. Use when someone says welcome.\n---\n${WELCOME_SKILL_MARKER}: say welcome twice.\n`,
  'plugins/reviewer/.claude-plugin/plugin.json': JSON.stringify({
    name: 'reviewer',
    version: '0.2.0',
    description: 'Reviews a change.',
    parameters: { depth: { type: 'string', description: 'How deep to look', default: 'shallow' } },
  }),
  'plugins/reviewer/skills/checklist/SKILL.md': `---\nname: checklist\ndescription: A review checklist. Use when asked for a review.\n---\n${CHECKLIST_SKILL_MARKER}: check the tests first.\n`,
  'plugins/reviewer/agents/critic.md': '---\nname: critic\ndescription: A strict critic.\n---\nBe strict.\n',
};

/** Creates the repository in a temporary directory and serves it until `close`. */
export async function startMarketplaceHost(): Promise<MarketplaceHost> {
  const root = await tempDir('bosun-web-marketplace-');
  await chmod(root.dir, 0o755);
  const remotes = join(root.dir, 'remotes');
  const repository = await TestRepository.create(remotes, 'acme/plugins');
  const commit = await repository.commit(MARKETPLACE_FILES, 'the Acme marketplace');
  const served = await serveGitOverHttp(remotes);
  return {
    url: served.url,
    source: 'github:acme/plugins',
    commit,
    repository,
    requests: served.requests,
    async close() {
      await served.close();
      await root.cleanup();
    },
  };
}
