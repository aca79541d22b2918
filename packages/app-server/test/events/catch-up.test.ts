import { randomUUID } from 'node:crypto';
import { AgentServerClient, AppServerClient, iterateConversationEvents } from '@bosun/client';
import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LOCAL_SPEC, type Sandbox } from '../../src/sandboxes/index.ts';
import { type Api, describeApi } from '../api/harness.ts';
import { until } from '../support/until.ts';
import { newConversation } from './support.ts';

const agentOf = (sandbox: Sandbox) =>
  new AgentServerClient({ baseUrl: sandbox.agentServerUrl as string, sessionApiKey: sandbox.sessionApiKey as string });

async function idsOf(events: AsyncIterable<{ id: string }>): Promise<string[]> {
  const ids: string[] = [];
  for await (const event of events) ids.push(event.id);
  return ids;
}

/** Waits for the conversation's run to end: the agent server's view, not a fixed sleep. */
const runEnded = (agent: AgentServerClient, id: string) =>
  until(
    () => agent.get('/api/conversations/{conversation_id}', { params: { conversation_id: id } }),
    (info) => info.execution_status !== 'running' && info.event_count > 0,
    'the run to end',
  );

let replay: LlmReplay;
beforeAll(async () => {
  replay = await startLlmReplay({ script: { turns: [{ content: 'Done, as asked.' }], repeat_last: true } });
});
afterAll(() => replay.close());

describeApi(
  'catching up events from a sandbox’s agent server',
  (api) => {
    it('pulls what the app lacks (a webhook out of order, a sweep, a resume): every event once, id for id, in order', async () => {
      const user = await api().user();
      const app = new AppServerClient({ baseUrl: api().url, apiKey: user.key });
      const id = randomUUID();
      const countStored = () =>
        app.get('/api/v1/conversation/{conversation_id}/events/count', { params: { conversation_id: id } });
      let sandbox = await api().sandboxes.start(LOCAL_SPEC, user.id, { id: id.replaceAll('-', '') });
      expect(sandbox.status).toBe('RUNNING');
      await newConversation(api() as Api, user.id, sandbox.id, id);
      let agent = agentOf(sandbox);
      // Its sandbox posts no webhook (sandboxWebhooks: false): only pulls bring the events.
      await agent.post('/api/conversations', {
        body: {
          conversation_id: id,
          agent: { llm: { model: 'openai/replay', base_url: replay.baseUrl, api_key: 'sk-replay' }, tools: [] },
          workspace: { working_dir: await api().workspaceOf(sandbox.id) },
          initial_message: { content: [{ type: 'text', text: 'Say you are done.' }], run: true },
        },
      });
      await runEnded(agent, id);
      const onAgent = await idsOf(agent.iterateEvents(id));
      expect(onAgent.length).toBeGreaterThan(2);
      // A webhook batch that does not follow what the app has (the earlier ones were lost): the app pulls
      // what it lacks first, so the order stays the agent server's.
      const [lastEvent] = await agent.getEvents(id, [onAgent.at(-1) as string]);
      const late = await api().call(`/api/v1/webhooks/events/${id}`, {
        method: 'POST',
        headers: { 'X-Session-API-Key': sandbox.sessionApiKey as string },
        body: [lastEvent],
      });
      expect(late.status).toBe(200);
      expect(await idsOf(iterateConversationEvents(app, id, { limit: 2 }))).toEqual(onAgent);
      await api().events.catchUp.sweep();
      expect(await idsOf(iterateConversationEvents(app, id))).toEqual(onAgent);

      // More events while the app does not look; then the sandbox is paused (the app still answers) and resumed.
      await agent.post('/api/conversations/{conversation_id}/events', {
        params: { conversation_id: id },
        body: { content: [{ type: 'text', text: 'Once more.' }], run: true },
      });
      await runEnded(agent, id);
      const before = await agent.get('/api/conversations/{conversation_id}/events/count', {
        params: { conversation_id: id },
      });
      await api().sandboxes.pause(user.id, sandbox.id);
      expect(await countStored()).toBe(onAgent.length);
      sandbox = (await api().sandboxes.resume(user.id, sandbox.id)) as Sandbox;
      agent = agentOf(sandbox);
      await until(countStored, (count) => count >= before, 'the catch-up on resume');
      const all = await idsOf(agent.iterateEvents(id));
      expect(all.slice(0, onAgent.length)).toEqual(onAgent);
      expect(await idsOf(iterateConversationEvents(app, id))).toEqual(all);
      // Pulling again finds nothing new and stores nothing twice.
      await api().events.catchUp.sweep();
      expect(await countStored()).toBe(all.length);
      const stored = await api().repositories.events.page(user.id, id, { descending: false, limit: 1000 });
      expect(stored.map((row) => row.seq)).toEqual(all.map((_, index) => index + 1));
      // The events outlive the sandbox.
      expect(await api().sandboxes.delete(user.id, sandbox.id)).toBe(true);
      expect(await idsOf(iterateConversationEvents(app, id))).toEqual(all);
    });
  },
  { sandboxWebhooks: false },
);
