import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { AgentServerClient, type AppServerClient, BosunApiError } from '@bosun/client';
import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import type { SandboxInfo } from '@bosun/protocol';
import type { Runtime } from '@bosun/runtime';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { describeEachDatabase } from '../support/databases.ts';
import { sandboxWorkspace } from './processes.ts';
import { type WholeServer, startWholeServer } from './whole-server.ts';

/** A raw GET of `path` (sent as written: no client-side `..` resolution, unlike fetch). */
function rawGet(url: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = httpRequest(`${url}${path}`, { headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.path = path;
    request.on('error', reject);
    request.end();
  });
}

/** The first frame of a WebSocket at `url`, or how it closed before one came. */
function firstFrame(url: string): Promise<{ frame?: string; code?: number; status?: number }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url);
    // A refused handshake, terminated here, also reports an error: the status is what is checked.
    socket.on('error', () => {});
    socket.once('message', (data) => {
      resolve({ frame: data.toString() });
      socket.close();
    });
    socket.once('close', (code) => resolve({ code }));
    socket.once('unexpected-response', (_request, response) => {
      resolve({ status: response.statusCode });
      socket.terminate();
    });
  });
}

describeEachDatabase('sandbox agent servers through the app’s proxy', (each) => {
  let replay: LlmReplay;
  let whole: WholeServer;
  let running: WholeServer['running'];
  let app: AppServerClient;
  let userId: string;
  let userKey: string;
  let sandbox: SandboxInfo;
  beforeAll(async () => {
    replay = await startLlmReplay({ script: { turns: [{ content: 'Done through the proxy.' }], repeat_last: true } });
    whole = await startWholeServer(each, { sandbox_urls: 'proxied' });
    running = whole.running;
    ({ id: userId, key: userKey, app } = await whole.user());
    sandbox = await app.post('/api/v1/sandboxes', { body: {} });
    expect(sandbox.status).toBe('RUNNING');
  }, 120_000);
  afterAll(async () => {
    await running?.close();
    await replay?.close();
  }, 120_000);
  const proxied = () => `${running.url}/sandboxes/${sandbox.id}/agent`;
  const agent = () => new AgentServerClient({ baseUrl: proxied(), sessionApiKey: sandbox.session_api_key as string });

  it('tells browsers the proxied URL and serves a conversation through it: REST, events socket, files', async () => {
    const port = Number(new URL(running.url).port);
    expect(sandbox.exposed_urls).toEqual([{ name: 'AGENT_SERVER', url: proxied(), port }]);
    const services = running.server.context.services;
    const direct = (await services?.sandboxRuntime.runtime.getManyBySession([sandbox.id]))?.[0];
    expect(direct?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(direct?.url).not.toBe(proxied());

    const id = randomUUID();
    const workspace = await sandboxWorkspace(services?.sandboxRuntime.runtime as Runtime, whole.dataDir, sandbox.id);
    await agent().post('/api/conversations', {
      body: {
        conversation_id: id,
        agent: { llm: { model: 'openai/replay', base_url: replay.baseUrl, api_key: 'sk-replay' }, tools: [] },
        workspace: { working_dir: workspace },
      },
    });
    await whole.conversationRow(userId, sandbox.id, id);
    const [view] = await app.get('/api/v1/app-conversations', { query: { ids: [id] } });
    expect(view?.conversation_url).toBe(`${proxied()}/api/conversations/${id}`);
    expect(view?.session_api_key).toBe(sandbox.session_api_key);

    // The events socket through the proxy (the client sends the key as a header), then a message posted through it.
    const replies: string[] = [];
    const events = agent().followEvents(id, { fromStart: true });
    await agent().post('/api/conversations/{conversation_id}/events', {
      params: { conversation_id: id },
      body: { role: 'user', content: [{ type: 'text', text: 'Hello?' }], run: true },
    });
    for await (const event of events) {
      if (event.kind === 'MessageEvent' && event.source === 'agent') {
        replies.push(JSON.stringify(event));
        break;
      }
    }
    expect(replies[0]).toContain('Done through the proxy.');
    expect((await agent().get('/api/conversations/{conversation_id}', { params: { conversation_id: id } })).id).toBe(
      id,
    );

    // A browser's socket: the key in the query, `resend_all` as OpenHands' web client asks.
    const key = encodeURIComponent(sandbox.session_api_key as string);
    const socketUrl = `${proxied().replace(/^http/, 'ws')}/sockets/events/${id}?resend_all=true&session_api_key=${key}`;
    const first = await firstFrame(socketUrl);
    expect(JSON.parse(first.frame ?? '{}')).toMatchObject({ kind: 'ConversationStateUpdateEvent', key: 'full_state' });

    // Files both ways, the query and the multipart body streamed as sent.
    const text = `proxied ${'x'.repeat(200_000)} end`;
    await agent().uploadFile(`${workspace}/notes/proxied.txt`, text);
    const downloaded = await agent().downloadFile(`${workspace}/notes/proxied.txt`);
    expect(Buffer.from(downloaded.bytes).toString('utf8')).toBe(text);
  }, 120_000);

  it('refuses an unknown sandbox or a wrong or missing key alike (401), a path leaving the prefix (400)', async () => {
    const key = sandbox.session_api_key as string;
    const unknown = await rawGet(running.url, '/sandboxes/nope/agent/api/conversations/search', {
      'x-session-api-key': key,
    });
    expect(unknown).toMatchObject({ status: 401 });
    expect(JSON.parse(unknown.body).detail).toMatch(/session key/);
    const base = `/sandboxes/${sandbox.id}/agent`;
    const refusals: Record<string, string>[] = [
      {},
      { 'x-session-api-key': 'wrong' },
      { authorization: `Bearer ${userKey}` },
    ];
    for (const headers of refusals) {
      const refused = await rawGet(running.url, `${base}/api/conversations/search`, headers);
      expect(refused.status, JSON.stringify(headers)).toBe(401);
      expect(JSON.parse(refused.body).detail).toMatch(/session key/);
    }
    for (const path of ['/../../../api/v1/users/me', '/%2e%2e/%2e%2e/%2e%2e/api/v1/users/me', '/api%2F..%2F..%2Fx']) {
      const escaped = await rawGet(running.url, `${base}${path}`, { 'x-session-api-key': key });
      expect(escaped.status, path).toBe(400);
      expect(JSON.parse(escaped.body).detail).toMatch(/leaves/);
    }
    // An encoded slash in the sandbox's place is no sandbox id: never another route.
    const slashed = await rawGet(running.url, `/sandboxes/${sandbox.id}%2F..%2Fx/agent/health`, {
      'x-session-api-key': key,
    });
    expect(slashed.status).toBe(404);
    const socket = await firstFrame(`${proxied().replace(/^http/, 'ws')}/sockets/events/${randomUUID()}`);
    expect(socket.status).toBe(401);
  });

  it('keeps another user’s sandbox key from this server (401), a paused one is 409, resumed it is proxied again', async () => {
    const { app: theirs } = await whole.user();
    const other = await theirs.post('/api/v1/sandboxes', { body: {} });
    expect(other.status).toBe('RUNNING');
    const path = '/api/conversations/search';
    const crossed = await rawGet(running.url, `/sandboxes/${sandbox.id}/agent${path}`, {
      'x-session-api-key': other.session_api_key as string,
    });
    expect(crossed.status).toBe(401);
    // Its own key, used while it runs: after the pause, the proxy tells whoever shows it why it is refused.
    const own = await rawGet(running.url, `/sandboxes/${other.id}/agent${path}`, {
      'x-session-api-key': other.session_api_key as string,
    });
    expect(own.status).toBe(200);
    await theirs.post('/api/v1/sandboxes/{sandbox_id}/pause', { params: { sandbox_id: other.id } });
    const paused = await rawGet(running.url, `/sandboxes/${other.id}/agent${path}`, {
      'x-session-api-key': other.session_api_key as string,
    });
    expect(paused.status).toBe(409);
    expect(JSON.parse(paused.body).detail).toMatch(/PAUSED/);
    await theirs.post('/api/v1/sandboxes/{sandbox_id}/resume', { params: { sandbox_id: other.id } });
    const [resumed] = await theirs.get('/api/v1/sandboxes', { query: { id: [other.id] } });
    expect(resumed?.session_api_key).not.toBe(other.session_api_key);
    // The same proxied URL: the agent server's address behind it is looked up again, the old key no longer works.
    const url = `${running.url}/sandboxes/${other.id}/agent`;
    expect(resumed?.exposed_urls?.[0]?.url).toBe(url);
    const again = new AgentServerClient({ baseUrl: url, sessionApiKey: resumed?.session_api_key as string });
    expect(await again.get('/api/conversations/search')).toMatchObject({ items: [] });
    const stale = new AgentServerClient({ baseUrl: url, sessionApiKey: other.session_api_key as string });
    await expect(stale.get('/api/conversations/search')).rejects.toSatisfy(
      (error) => error instanceof BosunApiError && error.status === 401,
    );
  }, 120_000);
});
