import { followConversationEvents } from '@bosun/client';
import type { ConversationInfo } from '@bosun/protocol';
import { expect, it } from 'vitest';
import { agentEnvironment } from '../sandboxes/processes.ts';
import { serverWithReplay } from '../support/server-with-replay.ts';
import { until } from '../support/until.ts';

/**
 * The whole server as `bosun serve` runs it (SQLite, in-process cache), with a fast sweep: a sandbox it starts is
 * told where to post, and the events of a conversation started on the sandbox's agent server reach the app by the
 * periodic sweep alone, then replay on the app's socket.
 */
const setup = serverWithReplay('bosun-events-wiring-', { turns: [{ content: 'Done.' }], repeat_last: true });

it('sweeps a running sandbox’s conversations into the app and relays them on its socket', async () => {
  const { running } = setup;
  const { id, user, sandbox, agent, services } = await setup.conversation({
    content: [{ type: 'text', text: 'Say done.' }],
    run: true,
  });
  const { app } = user;
  expect(await agentEnvironment(services.sandboxRuntime.runtime, sandbox.id)).toMatchObject({
    BOSUN_WEBHOOK_BASE_URL: `${running.url}/api/v1/webhooks`,
    BOSUN_ALLOW_CORS_ORIGINS: running.url,
  });
  const ended = await until(
    () => agent.get('/api/conversations/{conversation_id}', { params: { conversation_id: id } }),
    (info) => info.execution_status !== 'running' && info.event_count > 0,
    'the run to end',
  );
  await until(
    () => app.get('/api/v1/conversation/{conversation_id}/events/count', { params: { conversation_id: id } }),
    (count) => count >= ended.event_count,
    'the sweep',
  );
  const onAgent: string[] = [];
  for await (const event of agent.iterateEvents(id)) onAgent.push(event.id);

  const abort = new AbortController();
  const snapshots: ConversationInfo[] = [];
  const relayed: string[] = [];
  const events = followConversationEvents(app, id, {
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
