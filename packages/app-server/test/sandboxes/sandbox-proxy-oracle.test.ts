import { randomBytes } from 'node:crypto';
import type { AppServerClient } from '@bosun/client';
import type { SandboxInfo } from '@bosun/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { describeEachDatabase } from '../support/databases.ts';
import { type WholeServer, startWholeServer } from './whole-server.ts';

/** How the proxy answers a GET of `/sandboxes/{id}/agent{path}` sent with `headers`. */
async function proxiedGet(
  base: string,
  id: string,
  headers: Record<string, string>,
  path = '/api/conversations/search',
) {
  const response = await fetch(`${base}/sandboxes/${id}/agent${path}`, { headers });
  return { status: response.status, body: await response.text() };
}

/** The status a WebSocket upgrade at `/sandboxes/{id}/agent/sockets/events/x` is refused with (0: it opened). */
function refusedUpgrade(base: string, id: string, query: string): Promise<number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/sandboxes/${id}/agent/sockets/events/x${query}`);
    socket.on('error', () => {});
    socket.once('open', () => {
      resolve(0);
      socket.terminate();
    });
    socket.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
  });
}

/**
 * The proxy is no oracle of which sandbox ids exist: without the sandbox's own key (none, a wrong one, another
 * sandbox's, the app's own credentials) an unknown, a paused, a deleted and a running sandbox are answered alike.
 * Whoever shows the sandbox's key is told what it is (409 paused, 410 deleted).
 */
describeEachDatabase('the sandbox proxy without the sandbox’s key', (each) => {
  let whole: WholeServer;
  let base: string;
  let app: AppServerClient;
  let userKey: string;
  let running: SandboxInfo;
  let paused: SandboxInfo;
  let deleted: SandboxInfo;
  let theirs: SandboxInfo;
  beforeAll(async () => {
    whole = await startWholeServer(each, { sandbox_urls: 'proxied' });
    base = whole.running.url;
    ({ app, key: userKey } = await whole.user());
    [running, paused, deleted] = [
      await app.post('/api/v1/sandboxes', { body: {} }),
      await app.post('/api/v1/sandboxes', { body: {} }),
      await app.post('/api/v1/sandboxes', { body: {} }),
    ];
    theirs = await (await whole.user()).app.post('/api/v1/sandboxes', { body: {} });
    for (const sandbox of [running, paused, deleted, theirs]) {
      expect(sandbox.status).toBe('RUNNING');
      // Each key used through the proxy while its sandbox runs, as a browser does.
      const used = await proxiedGet(base, sandbox.id, { 'x-session-api-key': sandbox.session_api_key as string });
      expect(used.status).toBe(200);
    }
    await app.post('/api/v1/sandboxes/{sandbox_id}/pause', { params: { sandbox_id: paused.id } });
    await app.delete('/api/v1/sandboxes/{sandbox_id}', { params: { sandbox_id: deleted.id } });
  }, 120_000);
  afterAll(async () => {
    await whole?.running.close();
  }, 120_000);

  it('answers an unknown, a paused, a deleted and a running sandbox alike: the same 401 {"detail"}', async () => {
    const unknown = randomBytes(16).toString('hex');
    const ids = { unknown, paused: paused.id, deleted: deleted.id, running: running.id };
    const credentials: Record<string, Record<string, string>> = {
      none: {},
      wrong: { 'x-session-api-key': randomBytes(32).toString('base64url') },
      'another sandbox’s key': { 'x-session-api-key': theirs.session_api_key as string },
      'the app’s own API key': { authorization: `Bearer ${userKey}` },
    };
    const answers = new Set<string>();
    for (const [name, id] of Object.entries(ids)) {
      for (const [credential, headers] of Object.entries(credentials)) {
        const answer = await proxiedGet(base, id, headers);
        expect(answer.status, `${name} sandbox, ${credential}`).toBe(401);
        answers.add(answer.body);
      }
      const inQuery = await proxiedGet(base, id, {}, `/api/conversations/search?session_api_key=${theirs.id}`);
      expect(inQuery.status, `${name} sandbox, a wrong key in the query`).toBe(401);
      answers.add(inQuery.body);
      expect(await refusedUpgrade(base, id, ''), `${name} sandbox, a WebSocket without a key`).toBe(401);
      expect(await refusedUpgrade(base, id, '?session_api_key=wrong'), `${name} sandbox, a WebSocket`).toBe(401);
    }
    expect([...answers]).toHaveLength(1);
    expect(JSON.parse([...answers][0] as string)).toEqual({ detail: expect.stringMatching(/session key/) });
  });

  it('tells whoever shows the sandbox’s key what it is: 409 paused (resume it), 410 deleted', async () => {
    const pausedAnswer = await proxiedGet(base, paused.id, { 'x-session-api-key': paused.session_api_key as string });
    expect(pausedAnswer.status).toBe(409);
    expect(JSON.parse(pausedAnswer.body).detail).toMatch(/PAUSED.*resume/);
    const deletedAnswer = await proxiedGet(base, deleted.id, {
      'x-session-api-key': deleted.session_api_key as string,
    });
    expect(deletedAnswer.status).toBe(410);
    expect(JSON.parse(deletedAnswer.body)).toEqual({ detail: expect.stringMatching(/no longer exists/) });
    // A key of one sandbox says nothing of another, even a paused one of the same user.
    const crossed = await proxiedGet(base, paused.id, { 'x-session-api-key': running.session_api_key as string });
    expect(crossed.status).toBe(401);
    expect(
      (await proxiedGet(base, running.id, { 'x-session-api-key': running.session_api_key as string })).status,
    ).toBe(200);
  });
});
