import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL } from '../../packages/app-server/test/cache/redis-support.ts';
import { type Started, killServers, startAppServer } from '../../packages/cli/test/server-process.ts';
import { TestRepository, tempDir } from '../../packages/sources/test/git/support.ts';
import { finish, terminal } from './turns.ts';
import { until as pollUntil } from './until.ts';

/**
 * Conversations through the application, end to end and through HTTP only: `bosun serve` as a process (so it can
 * be killed), real sandboxes (its `bosun agent-server` children), llm-replay as the model, a repository and a
 * plugin in local bare Git repositories. Once on SQLite, once on PostgreSQL with Redis.
 */

const exec = promisify(execFile);
const CLI = join(import.meta.dirname, '../../packages/cli/bin/bosun.js');
const POSTGRES = 'postgres://postgres@127.0.0.1:5432';
const README = 'hello from the project README';

// biome-ignore lint/suspicious/noExplicitAny: the test reads wire JSON loosely and asserts on it.
type Json = any;

interface App {
  url: string;
  key: string;
  started: Started & { child: import('node:child_process').ChildProcess };
  call(path: string, init?: { method?: string; body?: unknown }): Promise<{ status: number; body: Json }>;
}

function script() {
  return {
    turns: [
      { when: { last_user_message_contains: 'first task' }, ...terminal('cat README.md') },
      { when: { last_tool_result_contains: README }, ...finish('read the README') },
      { when: { last_user_message_contains: 'second task' }, ...terminal('git log --oneline | wc -l') },
      { when: { last_user_message_contains: 'second task' }, ...finish('counted the commits') },
      // The long run the app server is killed in the middle of.
      { when: { last_user_message_contains: 'long task' }, ...terminal('echo step'), times: 40 },
      { when: { last_user_message_contains: 'long task' }, ...finish('long run done') },
    ],
  };
}

/** The runtime's id of the app's sandbox `sandboxId`: the record under `<data_dir>/sandboxes/` naming it its session. */
async function runtimeIdOf(dataDir: string, sandboxId: string): Promise<string> {
  const root = join(dataDir, 'sandboxes');
  for (const id of await readdir(root)) {
    const record = JSON.parse(await readFile(join(root, id, 'sandbox.json'), 'utf8').catch(() => '{}'));
    if (record.spec?.sessionId === sandboxId) return id;
  }
  throw new Error(`no runtime record of sandbox ${sandboxId}`);
}

const until = <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> =>
  pollUntil(what, probe, timeoutMs);

for (const dialect of ['sqlite', 'postgres'] as const) {
  // Each test starts sandboxes (and one a whole app server again): seconds on a quiet machine, a minute on a busy one.
  describe(`conversations through the application (${dialect})`, { timeout: 180_000 }, () => {
    let root: { dir: string; cleanup: () => Promise<void> };
    let llm: LlmReplay;
    let env: Record<string, string>;
    let dataDir: string;
    let dropDatabase = async () => {};
    let app: App;
    let project: TestRepository;
    let plugin: TestRepository;
    let pluginCommit: string;

    async function startApp(): Promise<App> {
      const started = await startAppServer(['--port', '0', '--data-dir', dataDir], env);
      if (!('child' in started)) throw new Error(`bosun serve exited ${started.code}: ${started.output}`);
      const { stdout } = await exec(process.execPath, [CLI, 'api-key', 'create', '--data-dir', dataDir], {
        env: { ...process.env, ...env },
      });
      const key = stdout.trim();
      const url = started.url;
      const call = async (path: string, init: { method?: string; body?: unknown } = {}) => {
        const response = await fetch(`${url}${path}`, {
          method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
          headers: {
            authorization: `Bearer ${key}`,
            ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        });
        const text = await response.text();
        return { status: response.status, body: text ? JSON.parse(text) : undefined };
      };
      return { url, key, started, call };
    }

    const conversationOf = async (id: string) => (await app.call(`/api/v1/app-conversations?ids=${id}`)).body[0];
    const appEvents = async (id: string): Promise<Json[]> => {
      const items: Json[] = [];
      let page: string | null = null;
      do {
        const query: string = `limit=100${page ? `&page_id=${page}` : ''}`;
        const answer = await app.call(`/api/v1/conversation/${id}/events/search?${query}`);
        expect(answer.status).toBe(200);
        items.push(...answer.body.items);
        page = answer.body.next_page_id;
      } while (page);
      return items;
    };
    const readyTask = (taskId: string) =>
      until(`start task ${taskId} READY`, async () => {
        const [task] = (await app.call(`/api/v1/app-conversations/start-tasks?ids=${taskId}`)).body;
        if (task?.status === 'ERROR') throw new Error(`start task ERROR: ${task.detail}`);
        return task?.status === 'READY' ? task : undefined;
      });
    const executionStatus = (id: string, status: string) =>
      until(`conversation ${id} ${status}`, async () =>
        (await conversationOf(id))?.execution_status === status ? true : undefined,
      );

    beforeAll(async () => {
      root = await tempDir('bosun-app-e2e-');
      // The runtime's root (<data_dir>/sandboxes) must be reachable by the sandboxes' user.
      await chmod(root.dir, 0o711);
      dataDir = join(root.dir, 'data');
      llm = await startLlmReplay({ script: script() });
      const remotes = join(root.dir, 'remotes');
      project = await TestRepository.create(remotes, 'acme/project');
      await project.commit({ 'README.md': `${README}\n` }, 'first');
      await project.commit({ 'src/main.txt': 'main\n' }, 'second');
      plugin = await TestRepository.create(remotes, 'acme/review-plugin');
      pluginCommit = await plugin.commit({
        '.claude-plugin/plugin.json': JSON.stringify({ name: 'review', version: '1.0.0' }),
        'skills/review/SKILL.md': '---\nname: review\ndescription: Review a change.\n---\nReview carefully.\n',
      });
      env = {
        BOSUN_LLM_MODEL: 'openai/scripted',
        BOSUN_LLM_BASE_URL: llm.baseUrl,
        BOSUN_LLM_API_KEY: 'sk-e2e-llm-key',
        BOSUN_GIT_GITHUB_URL: `file://${remotes}`,
        BOSUN_LOG_LEVEL: 'warn',
        // The flows, not the isolation (packages/app-server/test/sandboxes/): sandboxes clone from this machine's
        // file system, which an isolated one cannot see.
        BOSUN_SANDBOX_ISOLATION: 'unsafe-none',
      };
      if (dialect === 'postgres') {
        const name = `bosun_e2e_${randomBytes(6).toString('hex')}`;
        env.BOSUN_DATABASE_URL = `${POSTGRES}/${name}`;
        env.BOSUN_REDIS_URL = REDIS_URL;
        dropDatabase = async () => {
          const admin = new pg.Client({ connectionString: `${POSTGRES}/postgres` });
          await admin.connect();
          await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
          await admin.end();
        };
      }
      app = await startApp();
    }, 120_000);

    afterAll(async () => {
      killServers();
      await llm?.close();
      await dropDatabase();
      await root?.cleanup();
    });

    it('starts a conversation with a repository and a plugin, keeps its events through a pause, and goes on after resume', async () => {
      const started = await app.call('/api/v1/app-conversations', {
        body: {
          initial_message: { role: 'user', content: [{ type: 'text', text: 'first task: read the README' }] },
          selected_repository: 'acme/project',
          git_provider: 'github',
          plugins: [{ source: plugin.url }],
          confirmed_plugin_sources: [{ source: plugin.url, commit: null }],
        },
      });
      expect(started.status).toBe(200);
      expect(started.body.status).toBe('WORKING');
      const task = await readyTask(started.body.id);
      expect(task.problems).toEqual([]);
      const id: string = task.app_conversation_id;
      const sandboxId: string = task.sandbox_id;
      await executionStatus(id, 'finished');

      // The agent ran a tool in the cloned repository, and the app has every event.
      const events = await until('the tool result on the app', async () => {
        const all = await appEvents(id);
        return all.some((event) => event.kind === 'ObservationEvent' && JSON.stringify(event).includes(README))
          ? all
          : undefined;
      });
      const running = await conversationOf(id);
      expect(running.sandbox_status).toBe('RUNNING');
      expect(running.conversation_url).toMatch(new RegExp(`/api/conversations/${id}$`));
      const onAgent = await fetch(`${running.conversation_url}/events/search?limit=100`, {
        headers: { 'X-Session-API-Key': running.session_api_key },
      }).then((response) => response.json() as Promise<Json>);
      await until('every agent-server event on the app', async () => {
        const ids = new Set((await appEvents(id)).map((event) => event.id));
        return onAgent.items.every((event: Json) => ids.has(event.id)) ? true : undefined;
      });
      expect(events.length).toBeGreaterThan(0);
      // The plugin was loaded into the conversation, from the commit it was at.
      const info = await fetch(running.conversation_url, {
        headers: { 'X-Session-API-Key': running.session_api_key },
      }).then((response) => response.json() as Promise<Json>);
      expect(info.resolved_plugins).toEqual([
        expect.objectContaining({ source: plugin.url, resolved_ref: pluginCommit, problems: [] }),
      ]);

      // Paused: the events are still readable, a message is refused with 409.
      expect((await app.call(`/api/v1/sandboxes/${sandboxId}/pause`, { method: 'POST' })).status).toBe(200);
      expect((await conversationOf(id)).sandbox_status).toBe('PAUSED');
      const whilePaused = await appEvents(id);
      expect(whilePaused.map((event) => event.id)).toEqual(
        expect.arrayContaining(onAgent.items.map((event: Json) => event.id)),
      );
      const refused = await app.call(`/api/v1/app-conversations/${id}/send-message`, {
        body: { role: 'user', content: [{ type: 'text', text: 'second task' }] },
      });
      expect(refused.status).toBe(409);

      // Resumed: the conversation goes on.
      expect((await app.call(`/api/v1/sandboxes/${sandboxId}/resume`, { method: 'POST' })).status).toBe(200);
      await until('the sandbox running again', async () =>
        (await conversationOf(id)).sandbox_status === 'RUNNING' ? true : undefined,
      );
      const sent = await app.call(`/api/v1/app-conversations/${id}/send-message`, {
        body: { role: 'user', content: [{ type: 'text', text: 'second task: count the commits' }] },
      });
      expect(sent.status).toBe(200);
      await until('the second answer on the app', async () =>
        (await appEvents(id)).some((event) => JSON.stringify(event).includes('counted the commits')) ? true : undefined,
      );
    });

    it('loses no event when the app server is killed (SIGKILL) while a conversation runs', async () => {
      const started = await app.call('/api/v1/app-conversations', {
        body: { initial_message: { role: 'user', content: [{ type: 'text', text: 'long task' }] } },
      });
      const task = await readyTask(started.body.id);
      const id: string = task.app_conversation_id;
      await until('some events on the app', async () => ((await appEvents(id)).length >= 6 ? true : undefined));
      app.started.child.kill('SIGKILL');
      await new Promise((resolve) => app.started.child.once('exit', resolve));

      app = await startApp();
      // Its sandbox went with the app; resuming it brings its log back, and the app catches up from it.
      expect((await app.call(`/api/v1/sandboxes/${task.sandbox_id}/resume`, { method: 'POST' })).status).toBe(200);
      const resumed = await until('the sandbox running again', async () => {
        const conversation = await conversationOf(id);
        return conversation?.sandbox_status === 'RUNNING' && conversation.session_api_key ? conversation : undefined;
      });
      const onAgent: Json[] = [];
      let page: string | null = null;
      do {
        const query: string = `limit=100${page ? `&page_id=${page}` : ''}`;
        const answer = await fetch(`${resumed.conversation_url}/events/search?${query}`, {
          headers: { 'X-Session-API-Key': resumed.session_api_key },
        }).then((response) => response.json() as Promise<Json>);
        onAgent.push(...answer.items);
        page = answer.next_page_id;
      } while (page);
      expect(onAgent.length).toBeGreaterThan(6);
      await until('every agent-server event on the app after the restart', async () => {
        const ids = new Set((await appEvents(id)).map((event) => event.id));
        return onAgent.every((event) => ids.has(event.id)) ? true : undefined;
      });
    });

    it('shows ERROR with a reason when a sandbox is killed (SIGKILL), and keeps serving', async () => {
      const started = await app.call('/api/v1/app-conversations', {
        body: { initial_message: { role: 'user', content: [{ type: 'text', text: 'first task again' }] } },
      });
      const task = await readyTask(started.body.id);
      const id: string = task.app_conversation_id;
      const { stdout } = await exec('pgrep', ['-f', `sandboxes/${await runtimeIdOf(dataDir, task.sandbox_id)}/`]);
      for (const pid of stdout.trim().split('\n')) process.kill(Number(pid), 'SIGKILL');
      const failed = await until('the conversation showing the sandbox ERROR', async () => {
        const conversation = await conversationOf(id);
        return conversation?.sandbox_status === 'ERROR' ? conversation : undefined;
      });
      expect(failed.session_api_key).toBeNull();
      const [sandbox] = (await app.call(`/api/v1/sandboxes?id=${task.sandbox_id}`)).body;
      expect(sandbox.status_detail).toMatch(/\S/);
      expect((await fetch(`${app.url}/ready`)).status).toBe(200);
      expect((await app.call(`/api/v1/conversation/${id}/events/search`)).status).toBe(200);
    });
  });
}
