import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentServerClient, AppServerClient } from '@bosun/client';
import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import type { ConversationInfo } from '@bosun/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningAppServer, appServerConfig, startAppServer } from '../../src/index.ts';
import { SANDBOX_COMMAND } from '../sandboxes/bundle.ts';
import { agentEnvironment, sandboxWorkspace } from '../sandboxes/processes.ts';
import { until } from '../support/until.ts';

/**
 * The whole server as `bosun serve` runs it (SQLite, in-process cache), with a fast sweep: a sandbox it starts is
 * told where to post, and the events of a conversation started on the sandbox's agent server reach the app by the
 * periodic sweep alone, then replay on the app's socket.
 */
let root: string;
let replay: LlmReplay;
let running: RunningAppServer;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'bosun-events-wiring-'));
  // Sandboxes run as another user, who must reach the runtime's root inside it.
  await chmod(root, 0o711);
  replay = await startLlmReplay({ script: { turns: [{ content: 'Done.' }], repeat_last: true } });
  running = await startAppServer(
    appServerConfig({
      port: 0,
      log_level: 'silent',
      data_dir: join(root, 'data'),
      event_sweep_interval: 0.2,
      // The wiring, not the isolation (test/sandboxes/): its agent reaches llm-replay wherever it listens.
      sandbox_isolation: 'unsafe-none',
      sandbox_command: SANDBOX_COMMAND,
    }),
  );
});
afterAll(async () => {
  await running?.close();
  await replay?.close();
  await rm(root, { recursive: true, force: true });
});

it('sweeps a running sandbox’s conversations into the app and relays them on its socket', async () => {
  const services = running.server.context.services;
  if (!services) throw new Error('the server has no services');
  const user = await services.repositories.users.create({ email: `${randomUUID()}@example.test` });
  const { key } = await services.repositories.apiKeys.create({ userId: user.id, name: 'test' });
  const app = new AppServerClient({ baseUrl: running.url, apiKey: key });
  const sandbox = await app.startSandbox();
  expect(sandbox.status).toBe('RUNNING');
  expect(await agentEnvironment(services.sandboxRuntime.runtime, sandbox.id)).toMatchObject({
    BOSUN_WEBHOOK_BASE_URL: `${running.url}/api/v1/webhooks`,
    BOSUN_ALLOW_CORS_ORIGINS: running.url,
  });
  const id = randomUUID();
  const now = new Date().toISOString();
  await services.repositories.conversations.insert([
    { id, user_id: user.id, org_id: null, sandbox_id: sandbox.id, title: null, created_at: now, updated_at: now },
  ]);
  const url = sandbox.exposed_urls?.[0]?.url as string;
  const agent = new AgentServerClient({ baseUrl: url, sessionApiKey: sandbox.session_api_key as string });
  await agent.startConversation({
    conversation_id: id,
    agent: { llm: { model: 'openai/replay', base_url: replay.baseUrl, api_key: 'sk-replay' }, tools: [] },
    workspace: { working_dir: await sandboxWorkspace(services.sandboxRuntime.runtime, join(root, 'data'), sandbox.id) },
    initial_message: { content: [{ type: 'text', text: 'Say done.' }], run: true },
  });
  const ended = await until(
    () => agent.getConversation(id),
    (info) => info.execution_status !== 'running' && info.event_count > 0,
    'the run to end',
  );
  await until(
    () => app.countConversationEvents(id),
    (count) => count >= ended.event_count,
    'the sweep',
  );
  const onAgent: string[] = [];
  for await (const event of agent.iterateEvents(id)) onAgent.push(event.id);

  const abort = new AbortController();
  const snapshots: ConversationInfo[] = [];
  const relayed: string[] = [];
  const events = app.followConversationEvents(id, {
    fromStart: true,
    signal: abort.signal,
    onSnapshot: (info) => snapshots.push(info),
  });
  for await (const event of events) {
    relayed.push(event.id);
    if (relayed.length === onAgent.length) break;
  }
  abort.abort();
  expect(relayed).toEqual(onAgent);
  expect(snapshots[0]).toMatchObject({ id, execution_status: ended.execution_status, event_count: onAgent.length });
  const refused = await fetch(`${running.url}/api/v1/webhooks/events/${id}`, { method: 'POST', body: '[]' });
  expect(refused.status).toBe(401);
});
