import type { ChildProcess } from 'node:child_process';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { type ServerProcess, spawnServer } from '../../packages/agent-server/test/support/server-process.ts';
import { sleep } from './support.ts';
import { terminal } from './turns.ts';

/*
 * SIGTERM on a real server process: it stops within its documented bound (10 s) whatever is in flight, a second
 * signal stops it at once, and a SIGKILL in the middle of the shutdown loses nothing that was acknowledged.
 */
const BOUND_MS = 10_000;
/** What the server prints when a stop request arrives. */
const STOPPING = /Stopping \(SIG[A-Z]+\)/;

let root: string | undefined;
const servers: ServerProcess[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.kill()));
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

async function testRoot(): Promise<string> {
  root ??= await realpath(await mkdtemp(join(tmpdir(), 'bosun-shutdown-')));
  return root;
}

/** A server process over `<root>/<name>`, its output kept. */
async function start(name = 'data'): Promise<ServerProcess & { output: () => string }> {
  const server = await spawnServer(join(await testRoot(), name));
  servers.push(server);
  let output = '';
  server.child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  server.child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return { ...server, output: () => output };
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(10);
  }
}

async function post<T = unknown>(url: string, body: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

async function get<T = unknown>(url: string): Promise<T> {
  return (await (await fetch(url)).json()) as T;
}

async function replay(script: Parameters<typeof startLlmReplay>[0]['script']): Promise<LlmReplay> {
  const llm = await startLlmReplay({ script });
  onTestFinished(() => llm.close());
  return llm;
}

async function startBody(llm: LlmReplay, retryMinWait: number, message: string): Promise<Record<string, unknown>> {
  return {
    agent: {
      llm: { model: 'test-model', base_url: llm.baseUrl, api_key: 'k', num_retries: 5, retry_min_wait: retryMinWait },
      tools: [{ name: 'terminal' }],
    },
    workspace: { working_dir: join(await testRoot(), 'workspace') },
    stuck_detection: false,
    initial_message: { role: 'user', content: [{ type: 'text', text: message }] },
  };
}

describe('SIGTERM', () => {
  it('stops within the bound while LLM calls retry against a dead endpoint (one running, one paused)', async () => {
    const llm = await replay({ turns: [{ error: { status: 503, times: 1_000_000 } }] });
    const server = await start();
    // Retries a minute apart (the defect: the server was still alive after 250 s).
    const running = await post<{ id: string }>(`${server.url}/api/conversations`, await startBody(llm, 60, 'one'));
    const paused = await post<{ id: string }>(`${server.url}/api/conversations`, await startBody(llm, 60, 'two'));
    expect([running.status, paused.status]).toEqual([201, 201]);
    await until(() => llm.requests().length >= 2, 'both runs called the LLM');
    expect((await post(`${server.url}/api/conversations/${paused.body.id}/pause`, {})).status).toBe(200);

    const started = Date.now();
    server.child.kill('SIGTERM');
    const exit = await exited(server.child);
    const tookMs = Date.now() - started;
    expect(exit, server.output()).toEqual({ code: 0, signal: null });
    expect(tookMs, server.output()).toBeLessThan(BOUND_MS);

    const again = await start();
    const info = (id: string) => get<{ execution_status: string }>(`${again.url}/api/conversations/${id}`);
    expect((await info(running.body.id)).execution_status).toBe('error');
    expect((await info(paused.body.id)).execution_status).toBe('paused');
  });

  it('exits at the bound when closing hangs (a request body that never ends), and at once on a second signal', async () => {
    for (const second of [false, true]) {
      const server = await start(`data-${second}`);
      // A request whose body never completes keeps the HTTP server from closing. A first, complete request on
      // the same connection shows the server has taken the connection.
      const { port } = new URL(server.url);
      const socket = connect(Number(port), '127.0.0.1');
      onTestFinished(() => {
        socket.destroy();
      });
      const answered = new Promise((resolve) => socket.once('data', resolve));
      socket.write('GET /api/conversations/count HTTP/1.1\r\nhost: x\r\n\r\n');
      await answered;
      // `Expect: 100-continue` makes the server say when it has read the headers: without waiting for that, the
      // SIGTERM could arrive while the connection still looked idle, and closing would end it at once.
      const continued = new Promise((resolve) => socket.once('data', resolve));
      socket.write(
        'POST /api/conversations HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\nexpect: 100-continue\r\n\r\n',
      );
      expect(String(await continued)).toMatch(/^HTTP\/1\.1 100 Continue/);
      socket.write('{');
      server.child.kill('SIGTERM');
      await until(() => STOPPING.test(server.output()), 'the server says it is stopping');
      if (second) server.child.kill('SIGINT');
      const exit = await exited(server.child);
      expect(exit.signal, server.output()).toBe('SIGKILL');
      expect(server.output()).toMatch(second ? /second stop request/ : /not stopped within 10 s/);
    }
  });

  it('loses nothing acknowledged when killed (SIGKILL) in the middle of its shutdown, and restarts consistent', async () => {
    // Agents that never stop running terminal commands, and senders appending user messages to them.
    const llm = await replay({
      turns: [{ ...terminal('echo step'), times: 1_000_000 }],
    });
    const server = await start();
    const ids: string[] = [];
    for (const name of ['a', 'b', 'c']) {
      const created = await post<{ id: string }>(`${server.url}/api/conversations`, {
        ...(await startBody(llm, 0.01, `agent ${name}`)),
        max_iterations: 1_000_000,
      });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    const acked = new Map<string, string[]>(ids.map((id) => [id, []]));
    let stopped = false;
    const senders = ids.flatMap((id) =>
      [0, 1].map(async (sender) => {
        for (let n = 0; !stopped; n++) {
          const text = `msg-${sender}-${n}`;
          try {
            const reply = await post(`${server.url}/api/conversations/${id}/events`, {
              content: [{ type: 'text', text }],
            });
            if (reply.status === 200) acked.get(id)?.push(text);
          } catch {
            return; // the server is gone: this message may or may not be there
          }
        }
      }),
    );
    const ackedCount = () => [...acked.values()].reduce((sum, texts) => sum + texts.length, 0);
    await until(() => ackedCount() >= 30 && llm.requests().length >= 30, 'messages and agent steps flow');

    server.child.kill('SIGTERM');
    await until(() => STOPPING.test(server.output()), 'the server says it is stopping');
    await sleep(Math.floor(Math.random() * 30));
    server.child.kill('SIGKILL');
    const exit = await exited(server.child);
    stopped = true;
    await Promise.all(senders);
    expect(exit.signal, `the kill came after the shutdown ended: ${server.output()}`).toBe('SIGKILL');

    const again = await start();
    for (const id of ids) {
      const base = `${again.url}/api/conversations/${id}`;
      const info = await get<{ execution_status: string }>(base);
      expect(info.execution_status).not.toBe('running');
      const events: { id: string; kind: string; source: string; [key: string]: unknown }[] = [];
      let pageId: string | null = null;
      do {
        const page: { items: typeof events; next_page_id: string | null } = await get(
          `${base}/events/search?limit=100${pageId ? `&page_id=${pageId}` : ''}`,
        );
        events.push(...page.items);
        pageId = page.next_page_id;
      } while (pageId);
      expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
      // Every acknowledged message is there, once.
      const texts = events
        .filter((event) => event.kind === 'MessageEvent' && event.source === 'user')
        .map((event) => (event.llm_message as { content: { text: string }[] }).content[0]?.text);
      for (const text of acked.get(id) ?? [])
        expect(
          texts.filter((t) => t === text),
          text,
        ).toHaveLength(1);
      // Every tool call has its result or an error saying the server stopped while it ran.
      const answered = new Set(
        events
          .filter((event) => event.kind === 'ObservationEvent' || event.kind === 'AgentErrorEvent')
          .map((event) => event.tool_call_id),
      );
      const unanswered = events.filter((event) => event.kind === 'ActionEvent' && !answered.has(event.tool_call_id));
      expect(unanswered).toEqual([]);
      // The status the conversation reports is the last one its log records.
      const statuses = events.filter(
        (event) => event.kind === 'ConversationStateUpdateEvent' && event.key === 'execution_status',
      );
      expect(statuses.at(-1)?.value).toBe(info.execution_status);
    }
  }, 180_000);
});
