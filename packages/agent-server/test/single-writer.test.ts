import type { Event } from '@bosun/protocol';
import { describe, expect, it } from 'vitest';
import { LogSession } from '../src/agent/log-session.ts';
import type { Conversation } from '../src/conversations/conversation.ts';
import { REDACTED } from '../src/conversations/info.ts';
import { type AgentRunner, idleRunner } from '../src/conversations/runner.ts';
import { ConversationBusyError, pause, startRun } from '../src/conversations/runs.ts';
import { sendUserMessage } from '../src/conversations/send-message.ts';
import { addSecrets, recordPlugin, switchLlm } from '../src/conversations/settings.ts';
import { serviceOnDiskPerTest } from './support/service-on-disk.ts';

/*
 * One conversation, one writer: a decision that depends on the conversation's state is taken inside the write
 * that acts on it, against what the writes queued before it wrote, never against the last durable record (which
 * a write still in flight is about to change).
 */
const disk = serviceOnDiskPerTest('bosun-single-writer-');
const { newConversation } = disk;

function statusEvents(conversation: Conversation): unknown[] {
  return disk.store
    .searchEvents(conversation.id, { descending: false, limit: 1000 })
    .map((row) => JSON.parse(row.json) as Event)
    .filter((event) => event.kind === 'ConversationStateUpdateEvent' && event.key === 'execution_status')
    .map((event) => (event as { value: unknown }).value);
}

/** A runner that records each run it is asked for, and leaves the status as it is. */
function recordingRunner(): { runner: AgentRunner; runs: string[] } {
  const runs: string[] = [];
  return { runner: { run: async () => void runs.push('run') }, runs };
}

describe('check-then-act inside the single writer', () => {
  it('records one status change when the same status is set twice at once', async () => {
    const conversation = await newConversation();
    await Promise.all([conversation.setStatus('paused'), conversation.setStatus('paused')]);
    expect(statusEvents(conversation)).toEqual(['paused']);
    expect(conversation.record.execution_status).toBe('paused');
  });

  it('reopens a finished conversation once when two messages arrive at once', async () => {
    const conversation = await newConversation();
    await conversation.setStatus('finished');
    const message = {
      role: 'user' as const,
      content: [{ type: 'text' as const, text: 'again', cache_prompt: false }],
      run: false,
    };
    await Promise.all([
      sendUserMessage(conversation, message, idleRunner),
      sendUserMessage(conversation, message, idleRunner),
    ]);
    expect(statusEvents(conversation)).toEqual(['finished', 'idle']);
    expect(conversation.record.execution_status).toBe('idle');
  });

  it('adds up usage recorded twice at once (neither update is lost)', async () => {
    const conversation = await newConversation();
    const session = new LogSession(conversation, disk.store);
    const usage = {
      prompt_tokens: 10,
      completion_tokens: 1,
      reasoning_tokens: 0,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
    };
    await Promise.all([
      session.recordUsage({ usageId: 'agent', model: 'm', usage, cost: 0.5, latencyMs: 100, responseId: 'r1' }),
      session.recordUsage({ usageId: 'agent', model: 'm', usage, cost: 0.25, latencyMs: 100, responseId: 'r2' }),
    ]);
    const metrics = conversation.record.stats.usage_to_metrics.agent as {
      accumulated_cost: number;
      accumulated_token_usage: { prompt_tokens: number };
    };
    expect(metrics.accumulated_cost).toBe(0.75);
    expect(metrics.accumulated_token_usage.prompt_tokens).toBe(20);
  });

  it('names every secret in the registry when secrets are added twice at once', async () => {
    const conversation = await newConversation();
    await Promise.all([addSecrets(conversation, { A: 'a' }), addSecrets(conversation, { B: 'b' })]);
    const registries = disk.store
      .searchEvents(conversation.id, { kind: 'ConversationStateUpdateEvent', descending: true, limit: 1 })
      .map((row) => JSON.parse(row.json) as { value: { secret_sources: Record<string, unknown> } });
    expect(Object.keys(registries[0]?.value.secret_sources ?? {}).sort()).toEqual(['A', 'B']);
    expect(Object.keys(conversation.record.request.secrets).sort()).toEqual(['A', 'B']);
  });

  it('keeps the key a switch queued just before when an LLM comes back with its key redacted', async () => {
    const conversation = await newConversation();
    await Promise.all([
      switchLlm(conversation, { ...conversation.record.request.agent.llm, model: 'a', api_key: 'sk-new' }),
      switchLlm(conversation, { ...conversation.record.request.agent.llm, model: 'b', api_key: REDACTED }),
    ]);
    expect(conversation.record.request.agent.llm.model).toBe('b');
    expect(conversation.record.request.agent.llm.api_key).toBe('sk-new');
  });

  it('keeps both plugins when two are recorded at once', async () => {
    const conversation = await newConversation();
    const plugin = (source: string) => ({ resolved: { source } as never, fetch: null });
    await Promise.all([recordPlugin(conversation, plugin('one')), recordPlugin(conversation, plugin('two'))]);
    expect(conversation.record.plugins?.map((p) => p.resolved)).toEqual([{ source: 'one' }, { source: 'two' }]);
  });

  it('does not start a run on a conversation that a write queued before it finishes', async () => {
    const conversation = await newConversation();
    const { runner, runs } = recordingRunner();
    const [, outcome] = await Promise.all([conversation.setStatus('finished'), startRun(conversation, runner)]);
    expect(outcome).toBe('finished');
    await conversation.activeRun;
    expect(runs).toEqual([]);
    expect(statusEvents(conversation)).toEqual(['finished']);
  });

  it('refuses to start a run on a conversation that a write queued before it marks running', async () => {
    const conversation = await newConversation();
    const { runner, runs } = recordingRunner();
    const marked = conversation.setStatus('running');
    await expect(startRun(conversation, runner)).rejects.toBeInstanceOf(ConversationBusyError);
    await marked;
    await conversation.activeRun;
    expect(runs).toEqual([]);
    expect(statusEvents(conversation)).toEqual(['running']);
  });

  it('runs a message sent to a finished conversation while a start of it is being refused', async () => {
    const conversation = await newConversation();
    await conversation.setStatus('finished');
    const { runner, runs } = recordingRunner();
    const message = {
      role: 'user' as const,
      content: [{ type: 'text' as const, text: 'again', cache_prompt: false }],
      run: true,
    };
    const [outcome] = await Promise.all([
      startRun(conversation, runner),
      sendUserMessage(conversation, message, runner),
    ]);
    expect(outcome).toBe('finished');
    await conversation.activeRun;
    expect(runs).toEqual(['run']);
    expect(statusEvents(conversation)).toEqual(['finished', 'idle', 'running']);
  });

  it('starts one run when two starts arrive at once', async () => {
    const conversation = await newConversation();
    const runs: string[] = [];
    const runner: AgentRunner = {
      run: async (c) => {
        runs.push('run');
        await c.setStatus('idle');
      },
    };
    const outcomes = await Promise.allSettled([startRun(conversation, runner), startRun(conversation, runner)]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    await conversation.activeRun;
    expect(runs).toEqual(['run']);
    expect(statusEvents(conversation)).toEqual(['running', 'idle']);
  });

  it('records one pause when two arrive at once', async () => {
    const conversation = await newConversation();
    await Promise.all([pause(conversation), pause(conversation)]);
    const pauses = disk.store.countEvents(conversation.id, { kind: 'PauseEvent' });
    expect(pauses).toBe(1);
    expect(statusEvents(conversation)).toEqual(['paused']);
  });
});

describe("a log session's history", () => {
  it('holds every durable event, read again only when new ones were committed', async () => {
    const conversation = await newConversation();
    const session = new LogSession(conversation, disk.store);
    expect(await session.history()).toEqual([]);
    const pause = { kind: 'PauseEvent' as const, source: 'user' as const };
    const [first] = await session.append([pause]);
    const [second] = await conversation.append([pause]);
    const ids = [first?.id, second?.id];
    expect((await session.history()).map((event) => event.id)).toEqual(ids);
    expect((await session.history()).map((event) => event.id)).toEqual(ids);
    expect((await new LogSession(conversation, disk.store).history()).map((event) => event.id)).toEqual(ids);
  });
});
