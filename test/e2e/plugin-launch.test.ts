import { execFile } from 'node:child_process';
import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killServers, startAppServer } from '../../packages/cli/test/server-process.ts';
import { TestRepository, serveGitOverHttp, tempDir } from '../../packages/sources/test/git/support.ts';
import { finish } from './turns.ts';

/**
 * A plugin from the Plugin Directory to a conversation, end to end and through HTTP only: `bosun serve` as a
 * process with its instance plugin marketplace in a Git repository served by `git http-backend` on loopback (the
 * configured GitHub URL), a real sandbox, llm-replay as the model. The user reads the directory, decodes the
 * plugin's launch link, is asked to confirm trust, confirms, and the plugin's command runs in the conversation.
 */

const exec = promisify(execFile);
const CLI = join(import.meta.dirname, '../../packages/cli/bin/bosun.js');

// biome-ignore lint/suspicious/noExplicitAny: the test reads wire JSON loosely and asserts on it.
type Json = any;

const PLUGIN = {
  name: 'greeter',
  version: '1.0.0',
  entry_command: 'greet',
  parameters: { city: { type: 'string', description: 'Whom to greet', required: true, default: 'Zürich' } },
  examples: [{ title: 'Greet the city', prompt: '/greeter:greet' }],
};

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('a plugin launched from the Plugin Directory', () => {
  let root: { dir: string; cleanup: () => Promise<void> };
  let llm: LlmReplay;
  let git: Awaited<ReturnType<typeof serveGitOverHttp>>;
  let commit: string;
  let call: (path: string, body?: unknown) => Promise<{ status: number; body: Json }>;

  beforeAll(async () => {
    root = await tempDir('bosun-plugin-launch-');
    // The runtime's root (<data_dir>/sandboxes) must be reachable by the sandboxes' user.
    await chmod(root.dir, 0o711);
    const remotes = join(root.dir, 'remotes');
    const marketplace = await TestRepository.create(remotes, 'acme/plugins');
    commit = await marketplace.commit({
      '.claude-plugin/marketplace.json': JSON.stringify({
        name: 'acme-plugins',
        owner: { name: 'Acme' },
        plugins: [
          { name: 'greeter', source: './plugins/greeter', description: 'Greets a city.', tags: ['demo'] },
          { name: 'other', source: './plugins/other', description: 'Something else.' },
        ],
      }),
      'plugins/greeter/.claude-plugin/plugin.json': JSON.stringify(PLUGIN),
      'plugins/greeter/commands/greet.md': '---\ndescription: Greet\n---\nGREET-COMMAND-BODY: greet the city.\n',
      'plugins/other/.claude-plugin/plugin.json': JSON.stringify({ name: 'other' }),
    });
    git = await serveGitOverHttp(remotes);
    llm = await startLlmReplay({
      script: {
        turns: [
          {
            when: { last_user_message_contains: 'GREET-COMMAND-BODY' },
            tool_calls: [
              { name: 'terminal', arguments: { command: 'echo GREETED-BY-PLUGIN > greeting.txt && cat greeting.txt' } },
            ],
          },
          { ...finish('greeted'), when: { last_tool_result_contains: 'GREETED-BY-PLUGIN' } },
        ],
      },
    });
    const dataDir = join(root.dir, 'data');
    const env = {
      BOSUN_LLM_MODEL: 'openai/scripted',
      BOSUN_LLM_BASE_URL: llm.baseUrl,
      BOSUN_LLM_API_KEY: 'sk-e2e-llm-key',
      BOSUN_GIT_GITHUB_URL: git.url,
      BOSUN_PLUGIN_DIRECTORY_SOURCE: 'github:acme/plugins',
      BOSUN_PLUGIN_DIRECTORY_FEATURED: 'greeter',
      // The directory reaches Git through the host guard, as the Skills & Plugins table does: loopback is allowed.
      BOSUN_GIT_ALLOW_PRIVATE_HOSTS: 'true',
      BOSUN_LOG_LEVEL: 'warn',
      // The flow, not the isolation (packages/app-server/test/sandboxes/ tests that): the sandbox fetches the
      // plugin from this machine's loopback Git server.
      BOSUN_SANDBOX_ISOLATION: 'unsafe-none',
    };
    const started = await startAppServer(['--port', '0', '--data-dir', dataDir], env);
    if (!('child' in started)) throw new Error(`bosun serve exited ${started.code}: ${started.output}`);
    const { stdout } = await exec(process.execPath, [CLI, 'api-key', 'create', '--data-dir', dataDir], {
      env: { ...process.env, ...env },
    });
    const key = stdout.trim();
    call = async (path, body) => {
      const response = await fetch(`${started.url}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    };
  }, 120_000);

  afterAll(async () => {
    killServers();
    await llm?.close();
    await git?.close();
    await root?.cleanup();
  });

  it('lists, searches and describes the plugins of the instance marketplace, each with its launch link', async () => {
    const all = await call('/api/v1/plugin-directory/plugins');
    expect(all.status).toBe(200);
    expect(all.body.marketplace).toMatchObject({ name: 'acme-plugins', source: 'github:acme/plugins', commit });
    expect(all.body.plugins.map((plugin: Json) => plugin.id)).toEqual(['greeter', 'other']);
    expect((await call('/api/v1/plugin-directory/plugins?tag=DEMO')).body.plugins.map((p: Json) => p.id)).toEqual([
      'greeter',
    ]);
    expect((await call('/api/v1/plugin-directory/plugins?q=else')).body.plugins.map((p: Json) => p.id)).toEqual([
      'other',
    ]);
    expect((await call('/api/v1/plugin-directory/featured')).body.plugins.map((p: Json) => p.id)).toEqual(['greeter']);
    const greeter = await call('/api/v1/plugin-directory/plugins/greeter');
    expect(greeter.body).toMatchObject({
      name: 'greeter',
      version: '1.0.0',
      featured: true,
      source: { source: 'github:acme/plugins', ref: commit, repo_path: 'plugins/greeter' },
      problems: [],
    });
    const config = await call('/api/v1/plugin-directory/plugins/greeter/config');
    expect(config.body).toEqual({
      entry_command: '/greeter:greet',
      parameters: { city: { type: 'string', description: 'Whom to greet', required: true, default: 'Zürich' } },
      examples: [{ title: 'Greet the city', prompt: '/greeter:greet' }],
      problems: [],
    });
    expect((await call('/api/v1/plugin-directory/plugins/none')).status).toBe(404);
  });

  it(
    'asks for trust, then starts the conversation the launch link describes and the plugin’s command runs',
    { timeout: 120_000 },
    async () => {
      const { launch_url: link } = (await call('/api/v1/plugin-directory/plugins/greeter')).body;
      const query = new URL(link).searchParams;
      const decoded = await call(
        `/api/v1/launch/decode?${new URLSearchParams({ plugins: query.get('plugins') ?? '', message: query.get('message') ?? '' })}`,
      );
      expect(decoded.body).toEqual({
        plugins: [
          { source: 'github:acme/plugins', ref: commit, repo_path: 'plugins/greeter', parameters: { city: 'Zürich' } },
        ],
        message: '/greeter:greet',
        problems: [],
      });
      const request = {
        plugins: decoded.body.plugins,
        initial_message: { role: 'user', content: [{ type: 'text', text: decoded.body.message }] },
      };

      const refused = await call('/api/v1/app-conversations', request);
      expect(refused.status).toBe(409);
      expect(refused.body.sources).toEqual([{ source: 'github:acme/plugins', commit }]);
      expect(refused.body.detail).toContain('github:acme/plugins');
      expect((await call('/api/v1/plugin-trust')).body.items).toEqual([]);

      const started = await call('/api/v1/app-conversations', {
        ...request,
        confirmed_plugin_sources: refused.body.sources,
      });
      expect(started.status).toBe(200);
      const task = await until('the start task READY', async () => {
        const [current] = (await call(`/api/v1/app-conversations/start-tasks?ids=${started.body.id}`)).body;
        if (current?.status === 'ERROR') throw new Error(`start task ERROR: ${current.detail}`);
        return current?.status === 'READY' ? current : undefined;
      });
      expect(task.problems).toEqual([]);
      expect((await call('/api/v1/plugin-trust')).body.items).toEqual([
        expect.objectContaining({ source: 'github:acme/plugins', commit }),
      ]);

      const events = await until('the plugin command’s effect in the events', async () => {
        const page = await call(`/api/v1/conversation/${task.app_conversation_id}/events/search?limit=100`);
        const items: Json[] = page.body?.items ?? [];
        return items.some((e) => e.kind === 'ObservationEvent' && JSON.stringify(e).includes('GREETED-BY-PLUGIN'))
          ? items
          : undefined;
      });
      // The command was triggered by the link's message; the parameter's value (UTF-8 intact) came with it.
      const message = events.find((e: Json) => e.kind === 'MessageEvent' && e.source === 'user');
      expect(message.activated_skills).toEqual(['greeter:greet']);
      expect(JSON.stringify(message)).toContain('Plugin Configuration Parameters:\\n- city: Zürich');
    },
  );
});
