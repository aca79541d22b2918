import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LLMConfig, parse } from '@bosun/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { LLMServiceUnavailableError } from '../../src/llm/errors.ts';
import { postJsonWithRetries } from '../../src/llm/http.ts';

/** Retries a minute apart: a test that waited for one would time out. */
const config = parse(LLMConfig, { model: 'm', num_retries: 5, retry_min_wait: 60, retry_max_wait: 60 });

interface Endpoint {
  url: string;
  hits: number;
  /** Resolves at the next request. */
  nextHit(): Promise<void>;
  /** Answers the request held by `hold` (200 `{"ok":true}`). */
  release(): void;
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A real HTTP endpoint on loopback: 503 to every request, or (with `hold`) an answer held until released. */
async function endpoint({ hold = false } = {}): Promise<Endpoint> {
  let waiters: (() => void)[] = [];
  let held: (() => void) | undefined;
  const state: Endpoint = {
    url: '',
    hits: 0,
    nextHit: () => new Promise((resolve) => waiters.push(resolve)),
    release: () => held?.(),
  };
  server = createServer((request, response) => {
    request.resume();
    state.hits++;
    for (const wake of waiters) wake();
    waiters = [];
    if (hold) {
      held = () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      return;
    }
    response.writeHead(503).end('down');
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
  return state;
}

describe('postJsonWithRetries', () => {
  it('stops retrying when `retries` is aborted during a backoff wait: the last error, no new attempt', async () => {
    const llm = await endpoint();
    const retries = new AbortController();
    const hit = llm.nextHit();
    const call = postJsonWithRetries(llm.url, {}, {}, config, undefined, retries.signal);
    await hit;
    retries.abort();
    await expect(call).rejects.toThrow(LLMServiceUnavailableError);
    expect(llm.hits).toBe(1);
  });

  it('lets the attempt in flight complete when `retries` is aborted (a pause waits for the step)', async () => {
    const llm = await endpoint({ hold: true });
    const retries = new AbortController();
    const hit = llm.nextHit();
    const call = postJsonWithRetries(llm.url, {}, {}, config, undefined, retries.signal);
    await hit;
    retries.abort();
    llm.release();
    expect((await call).body).toEqual({ ok: true });
  });

  it('gives up at once when `signal` is aborted during a backoff wait, with its reason', async () => {
    const llm = await endpoint();
    const stop = new AbortController();
    const hit = llm.nextHit();
    const call = postJsonWithRetries(llm.url, {}, {}, config, stop.signal);
    await hit;
    const reason = new Error('server stopping');
    stop.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect(llm.hits).toBe(1);
  });
});
