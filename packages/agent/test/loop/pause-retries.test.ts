import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type CriticFailure,
  LLMCritic,
  SummarizingCondenser,
  completeWithCondensation,
  condenserSettings,
  createProvider,
  criticSettings,
} from '@bosun/agent';
import { LLMConfig, parse } from '@bosun/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { MemorySession, ScriptedProvider, agentWith, call, system, user } from '../condenser/fixtures.ts';
import { criticAgent, messageDraft } from '../critic/support.ts';

/**
 * A pause ends the retrying of every LLM call of a run: the agent's, the critic's and the condenser's. Their LLM
 * here is a real endpoint that is always unavailable, retried a minute apart: a call that kept retrying after
 * the pause would outlast the test.
 */
let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** The base URL of an endpoint answering 503 to everything, and a promise of its first request. */
async function unavailable(): Promise<{ baseUrl: string; firstHit: Promise<void> }> {
  let hit: () => void = () => undefined;
  const firstHit = new Promise<void>((resolve) => {
    hit = resolve;
  });
  server = createServer((request, response) => {
    request.resume();
    hit();
    response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"message":"down"}}');
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, firstHit };
}

const slowRetries = (baseUrl: string) =>
  parse(LLMConfig, {
    model: 'openai/judge',
    base_url: baseUrl,
    api_key: 'k',
    num_retries: 5,
    retry_min_wait: 60,
    retry_max_wait: 60,
  });

describe('a pause', () => {
  it("stops the critic's LLM retries: the critique gives up and the step goes on unjudged", async () => {
    const { baseUrl, firstHit } = await unavailable();
    const agent = criticAgent({ kind: 'LLMCritic', llm: slowRetries(baseUrl) });
    const settings = criticSettings(agent);
    if (!settings) throw new Error('no critic');
    const failures: CriticFailure[] = [];
    const critic = new LLMCritic(settings, createProvider(settings.llm), (failure) => failures.push(failure));
    const session = new MemorySession(agent, [system(), user('Build it.', 'u1'), ...call('c1')]);
    const pause = new AbortController();
    const judged = critic.critique(session, [messageDraft('Done.')], undefined, pause.signal);
    await firstHit;
    pause.abort();
    const events = await judged;
    expect((events[0] as { critic_result?: unknown }).critic_result).toBeUndefined();
    expect(failures).toHaveLength(1);
  });

  it("stops the condenser's LLM retries: the step's own call goes on with the history as it was", async () => {
    const { baseUrl, firstHit } = await unavailable();
    const agent = agentWith({ kind: 'LLMSummarizingCondenser', max_size: 8, keep_first: 2, llm: slowRetries(baseUrl) });
    const settings = condenserSettings(agent);
    if (!settings) throw new Error('no condenser');
    const condenser = new SummarizingCondenser(settings, createProvider(settings.llm));
    const history = [system(), user('Build it.', 'u'), ...Array.from({ length: 10 }, (_, i) => call(`c${i}`)).flat()];
    const session = new MemorySession(agent, history);
    const own = new ScriptedProvider(['the answer']);
    const pause = new AbortController();
    const step = completeWithCondensation({
      session,
      history,
      condenser,
      complete: (messages) => own.complete({ messages, tools: [] }),
      retries: pause.signal,
    });
    await firstHit;
    pause.abort();
    expect((await step)?.content).toBe('the answer');
  });
});
