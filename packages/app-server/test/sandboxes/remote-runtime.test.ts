import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import { LocalRuntime, RemoteRuntime, buildRuntimeApi } from '@bosun/runtime';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SANDBOX_COMMAND } from '../../../../test/support/sandbox-bundle.ts';
import { type TestUser, describeApi } from '../api/harness.ts';
import { agentOfConversation, eventsUntil, streamStart } from '../conversations/support.ts';

const API_KEY = 'app-to-runtime-key-0123456789';

let llm: LlmReplay;
const services: { local: LocalRuntime; api: FastifyInstance; root: string }[] = [];
beforeAll(async () => {
  llm = await startLlmReplay({ script: { turns: [{ content: 'Hello from the model.' }], repeat_last: true } });
}, 180_000);
afterAll(async () => {
  for (const { local, api, root } of services) {
    await api.close();
    await local.close();
    await rm(root, { recursive: true, force: true });
  }
  await llm?.close();
}, 180_000);

/**
 * The app against a runtime service: `buildRuntimeApi` over a local runtime (bubblewrap) on a loopback port, the
 * app's sandboxes through a `RemoteRuntime` over real HTTP. A conversation starts to READY and its agent reaches the
 * model (allowed to its sandbox because the user's settings name it), then is paused and resumed through the service.
 */
describeApi(
  'sandboxes in a runtime service',
  (api) => {
    let owner: TestUser;

    beforeAll(async () => {
      const settings = { llm_model: 'openai/replay', llm_base_url: llm.baseUrl, llm_api_key: 'sk-replay' };
      owner = await api().user(settings);
    });

    it('starts a conversation to READY in a sandbox of the service, whose agent reaches the model', async () => {
      expect(api().runtime).toMatchObject({ embedded: false });
      expect((await api().runtime.runtime.health()).isolated).toBe(true);
      const { last } = await streamStart(api(), owner, {
        initial_message: { content: [{ type: 'text', text: 'Say hello.' }], run: true },
      });
      expect(last).toMatchObject({ status: 'READY', detail: null });
      const found = await api().runtime.runtime.getBySession(last.sandbox_id);
      expect(found).toMatchObject({ status: 'RUNNING' });
      // Only what it needs: the model and the app (its webhooks).
      const { hostname, port } = new URL(llm.baseUrl);
      const app = new URL(api().url);
      expect(found?.isolation).toContain(`network: allow ${hostname}:${port}, ${app.hostname}:${app.port}`);
      const agent = await agentOfConversation(api(), owner, last.app_conversation_id);
      const answered = (event: { kind: string; source?: string }) =>
        event.kind === 'ConversationErrorEvent' || (event.kind === 'MessageEvent' && event.source === 'agent');
      const events = await eventsUntil(agent, last.app_conversation_id, answered);
      expect(JSON.stringify(events.at(-1))).toContain('Hello from the model.');

      const path = `/api/v1/sandboxes/${last.sandbox_id}`;
      expect((await api().call(`${path}/pause`, { method: 'POST', as: owner })).status).toBe(200);
      expect(await api().runtime.runtime.getBySession(last.sandbox_id)).toMatchObject({ status: 'PAUSED' });
      expect((await api().call(`${path}/resume`, { method: 'POST', as: owner })).status).toBe(200);
      const [resumed] = (await api().call(`/api/v1/sandboxes?id=${last.sandbox_id}`, { as: owner })).body;
      expect(resumed.status).toBe('RUNNING');
      expect(resumed.session_api_key).not.toBe(found?.sessionApiKey);
    });
  },
  {
    runtime: async () => {
      const root = await mkdtemp(join(tmpdir(), 'bosun-runtime-service-'));
      await chmod(root, 0o711);
      const local = await LocalRuntime.open({ root, command: SANDBOX_COMMAND });
      const service = buildRuntimeApi({ runtime: local, apiKeys: [API_KEY] });
      services.push({ local, api: service, root });
      const baseUrl = await service.listen({ host: '127.0.0.1', port: 0 });
      const runtime = new RemoteRuntime({ baseUrl, apiKey: API_KEY });
      return { runtime, embedded: false, description: `Sandboxes: runtime service ${baseUrl}` };
    },
  },
);
