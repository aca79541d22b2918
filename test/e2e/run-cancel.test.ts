import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import { describe, expect, it, onTestFinished } from 'vitest';
import { type E2EServer, ofKind, outline, restartableServer, sleep, startServer, withoutStats } from './support.ts';

/*
 * An LLM endpoint that is down (503 to everything) and an agent whose retries are a minute apart: a run is then
 * almost always waiting to retry. Pausing or stopping the server must not wait for those retries.
 */
async function deadLlm(): Promise<LlmReplay> {
  const llm = await startLlmReplay({ script: { turns: [{ error: { status: 503, times: 1_000_000 } }] } });
  onTestFinished(() => llm.close());
  return llm;
}

async function startRetrying(server: E2EServer, llm: LlmReplay, message = 'Hello'): Promise<string> {
  const created = await server.api<{ id: string }>('POST', '/api/conversations', {
    agent: {
      llm: { model: 'test-model', base_url: llm.baseUrl, api_key: 'k', num_retries: 5, retry_min_wait: 60 },
      tools: [{ name: 'terminal' }],
    },
    workspace: { working_dir: server.workspace },
    initial_message: { role: 'user', content: [{ type: 'text', text: message }] },
  });
  expect(created.status, created.text).toBe(201);
  const before = llm.requests().length;
  for (let i = 0; llm.requests().length === before; i++) {
    if (i > 2000) throw new Error('the LLM was never called');
    await sleep(10);
  }
  return created.body.id;
}

/** The run of a conversation, once it has ended (a minute or more when a retry is waited for). */
async function runEnded(server: E2EServer, id: string): Promise<void> {
  await server.agentServer?.service.get(id)?.activeRun?.catch(() => undefined);
}

describe('cancelling runs whose LLM is retrying', () => {
  it('pause ends the retrying at once: no new attempt, the conversation stays paused, no error', async () => {
    const llm = await deadLlm();
    const server = await startServer();
    const id = await startRetrying(server, llm);
    const paused = await server.api('POST', `/api/conversations/${id}/pause`);
    expect(paused.status, paused.text).toBe(200);
    await runEnded(server, id);
    expect(llm.requests()).toHaveLength(1);
    expect((await server.conversation(id)).execution_status).toBe('paused');
    const events = await server.allEvents(id);
    expect(ofKind(events, 'ConversationErrorEvent'), JSON.stringify(outline(events))).toEqual([]);
    // The retry notice is cleared once the retrying ended, after the pause.
    expect(outline(withoutStats(events)).at(-1)).toBe('status:paused');
  });

  it('closing the server cancels every run, and leaves each as a restart would find it recovered', async () => {
    const llm = await deadLlm();
    const stack = await restartableServer();
    await stack.start();
    const { server } = stack;
    const ids = [await startRetrying(server, llm, 'one'), await startRetrying(server, llm, 'two')];
    const loaded = ids.map((id) => server.agentServer?.service.get(id));
    await stack.stop();
    for (const conversation of loaded) {
      expect(conversation?.activeRun, `run of ${conversation?.id} still going`).toBeUndefined();
    }

    await stack.start();
    for (const id of ids) {
      expect((await server.conversation(id)).execution_status).toBe('error');
      const events = await server.allEvents(id);
      const errors = ofKind(events, 'ConversationErrorEvent');
      expect(errors.map((error) => error.code)).toEqual(['ServerStopped']);
      expect(outline(events).at(-1)).toBe('status:error');
    }
    expect(llm.requests()).toHaveLength(2);
  });
});
