import { join } from 'node:path';
import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import { describe, expect, it, onTestFinished } from 'vitest';
import { TestRepository } from '../../packages/sources/test/git/support.ts';
import {
  type ConversationInfo,
  llmConfig,
  ofKind,
  outline,
  recordedRequests,
  restartableServer,
  sleep,
  startStack,
} from './support.ts';
import { finish, terminal } from './turns.ts';

/** Waits until the scripted LLM has received a request. */
async function waitForRequests(llm: LlmReplay): Promise<void> {
  while ((await recordedRequests(llm)).length === 0) await sleep(25);
}

describe('POST /api/conversations/{id}/interrupt', () => {
  it('cancels the LLM call in flight: paused at once, no error, and the conversation goes on', async () => {
    const { server, llm } = await startStack({ turns: [{ hang: true }, finish('Went on.')] });
    const created = await server.startConversation(llm, { message: 'Go.', timeout: 600, numRetries: 0 });
    // The agent is waiting for an LLM answer that never comes.
    await waitForRequests(llm);

    const reply = await server.api('POST', `/api/conversations/${created.id}/interrupt`);
    expect(reply.status, reply.text).toBe(200);
    // The run has ended when interrupt answers.
    expect(server.agentServer?.service.get(created.id)?.activeRun).toBeUndefined();
    const info = await server.waitFor(created.id, () => true);
    expect(info.execution_status).toBe('paused');
    const events = await server.allEvents(created.id);
    expect(ofKind(events, 'ConversationErrorEvent')).toEqual([]);
    expect(outline(events).slice(-2)).toEqual(['PauseEvent', 'status:paused']);

    expect((await server.api('POST', `/api/conversations/${created.id}/run`)).status).toBe(200);
    await server.waitForStatus(created.id, 'finished');
    const final = await server.api('GET', `/api/conversations/${created.id}/agent_final_response`);
    expect(final.body).toEqual({ response: 'Went on.' });
  });
});

describe('GET /api/conversations/{id}/agent_final_response', () => {
  it("is the finish message, else the agent's last message", async () => {
    const { server, llm } = await startStack({ turns: [{ content: 'Plain answer.' }, finish('Finished answer.')] });
    const created = await server.startConversation(llm, { message: 'First.' });
    await server.waitForStatus(created.id, 'finished');
    const path = `/api/conversations/${created.id}/agent_final_response`;
    expect((await server.api('GET', path)).body).toEqual({ response: 'Plain answer.' });
    await server.sendMessage(created.id, 'Again.');
    await server.waitForStatus(created.id, 'finished');
    expect((await server.api('GET', path)).body).toEqual({ response: 'Finished answer.' });
  });
});

describe('POST /api/conversations/{id}/switch_llm', () => {
  it('the next run calls the new LLM; 409 while a run is in progress', async () => {
    const { server, llm } = await startStack({ turns: [{ hang: true }] });
    const created = await server.startConversation(llm, { message: 'Go.', timeout: 600, numRetries: 0 });
    await waitForRequests(llm);
    const other = await startLlmReplay({ script: { turns: [finish('From the other LLM.')] } });
    onTestFinished(() => other.close());
    const switchTo = { llm: llmConfig(other, { model: 'other-model' }) };
    const busy = await server.api('POST', `/api/conversations/${created.id}/switch_llm`, switchTo);
    expect(busy.status).toBe(409);

    expect((await server.api('POST', `/api/conversations/${created.id}/interrupt`)).status).toBe(200);
    const reply = await server.api('POST', `/api/conversations/${created.id}/switch_llm`, switchTo);
    expect(reply.status, reply.text).toBe(200);
    expect((await server.api('POST', `/api/conversations/${created.id}/run`)).status).toBe(200);
    await server.waitForStatus(created.id, 'finished');
    expect(await recordedRequests(other)).toHaveLength(1);
    expect((await recordedRequests(other))[0]?.body).toMatchObject({ model: 'other-model' });
    const info = (await server.waitFor(created.id, () => true)) as ConversationInfo & { metrics: object };
    expect(info.metrics).toMatchObject({ model_name: 'other-model' });
  });
});

describe('POST /api/conversations/{id}/load_plugin', () => {
  it("loads a registered marketplace's plugin into a conversation: its hook acts from the next run on", async () => {
    const llm = await startLlmReplay({
      script: {
        turns: [finish('Before.'), terminal('echo hi'), finish('After.')],
      },
    });
    onTestFinished(() => llm.close());
    const stack = await restartableServer((root) => ({ gitProviders: { github: `file://${join(root, 'remotes')}` } }));
    await stack.start();
    const { server } = stack;
    const market = await TestRepository.create(join(stack.root, 'remotes'), 'acme/market');
    const sha = await market.commit({
      '.claude-plugin/marketplace.json': JSON.stringify({
        name: 'acme',
        owner: { name: 'Acme' },
        plugins: [{ name: 'guard', source: './guard' }],
      }),
      'guard/.claude-plugin/plugin.json': JSON.stringify({ name: 'guard', version: '1.0.0' }),
      'guard/hooks/hooks.json': JSON.stringify({
        hooks: { PreToolUse: [{ matcher: 'terminal', hooks: [{ type: 'command', command: 'echo no >&2; exit 2' }] }] },
      }),
    });
    const created = await server.startConversation(llm, {
      message: 'First.',
      tools: [{ name: 'terminal' }],
      agent: { agent_context: { registered_marketplaces: [{ name: 'acme', source: 'github:acme/market' }] } },
    });
    await server.waitForStatus(created.id, 'finished');
    const load = (plugin_ref: string) =>
      server.api('POST', `/api/conversations/${created.id}/load_plugin`, { plugin_ref });

    const missing = await load('nothing@acme');
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({
      detail: [{ msg: "Marketplace 'acme' lists no plugin 'nothing' (it lists: guard)" }],
    });
    expect((await load('guard@acme')).status).toBe(200);
    // Loading it again changes nothing.
    expect((await load('guard@acme')).status).toBe(200);
    const info = (await server.waitFor(created.id, () => true)) as ConversationInfo & { resolved_plugins: object[] };
    expect(info.resolved_plugins).toEqual([
      expect.objectContaining({ marketplace: 'acme', name: 'guard', resolved_ref: sha, problems: [] }),
    ]);

    await server.sendMessage(created.id, 'Try the terminal.');
    await server.waitForStatus(created.id, 'finished');
    const events = await server.allEvents(created.id, 100);
    expect(ofKind(events, 'UserRejectObservation')).toEqual([
      expect.objectContaining({ rejection_source: 'hook', rejection_reason: expect.stringContaining('no') }),
    ]);

    // After a restart the plugin is still there, at the same commit.
    await stack.restart();
    const again = await server.api<{ resolved_plugins: object[] }>('GET', `/api/conversations/${created.id}`);
    expect(again.body.resolved_plugins).toEqual(info.resolved_plugins);
  });
});
