import { describe, expect, it } from 'vitest';
import { call } from './support/http.ts';
import { startRequest } from './support/server.ts';
import { testServerPerFile } from './support/shared-server.ts';

const server = testServerPerFile();

describe('server details', () => {
  it('GET /alive answers 200 {"status":"ok"}', async () => {
    const reply = await call(server.url, '/alive');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: 'ok' });
  });

  it('GET /health answers 200 {"status":"ok"}', async () => {
    const reply = await call(server.url, '/health');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: 'ok' });
  });

  it('GET /ready answers 200 once the server listens', async () => {
    const reply = await call(server.url, '/ready');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: 'ready' });
  });

  it('GET /server_info describes the server', async () => {
    const reply = await call<Record<string, unknown>>(server.url, '/server_info');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      title: 'Bosun Agent Server',
      version: '0.1.0',
      uptime: expect.any(Number),
      idle_time: expect.any(Number),
      node_version: process.version,
      docs: '/docs',
    });
    expect(Number.isInteger(reply.body.uptime)).toBe(true);
    expect(reply.body.uptime as number).toBeGreaterThanOrEqual(0);
  });

  it('GET / answers as /server_info', async () => {
    const reply = await call<Record<string, unknown>>(server.url, '/');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ title: 'Bosun Agent Server', idle_time: expect.any(Number) });
  });

  it('idle_time counts from the last event other than a state update', async () => {
    const { service } = server.server;
    const created = await call<{ id: string }>(server.url, '/api/conversations', {
      method: 'POST',
      json: startRequest(),
    });
    // As if the server had been idle for a minute.
    service.lastActivityAt = Date.now() - 60_000;
    const idle = await call<{ idle_time: number }>(server.url, '/server_info');
    expect(idle.body.idle_time).toBeGreaterThanOrEqual(60);
    // A state update (a new confirmation policy) is not activity.
    const policy = await call(server.url, `/api/conversations/${created.body.id}/confirmation_policy`, {
      method: 'POST',
      json: { policy: { kind: 'AlwaysConfirm' } },
    });
    expect(policy.status).toBe(200);
    expect((await call<{ idle_time: number }>(server.url, '/server_info')).body.idle_time).toBeGreaterThanOrEqual(60);
    // A message is.
    const sent = await call(server.url, `/api/conversations/${created.body.id}/events`, {
      method: 'POST',
      json: { role: 'user', content: [{ type: 'text', text: 'hello' }] },
    });
    expect(sent.status).toBe(200);
    expect((await call<{ idle_time: number }>(server.url, '/server_info')).body.idle_time).toBeLessThan(60);
  });

  it('answers JSON content', async () => {
    const reply = await call(server.url, '/alive');
    expect((reply.headers as Headers).get('content-type')).toMatch(/^application\/json/);
  });

  it('answers 404 {"detail":"Not Found"} for an unknown route', async () => {
    const reply = await call(server.url, '/no/such/route');
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ detail: 'Not Found' });
  });

  it('answers 405 with Allow for a method a route does not have', async () => {
    const reply = await call(server.url, '/alive', { method: 'DELETE' });
    expect(reply.status).toBe(405);
    expect((reply.headers as Headers).get('allow')).toBe('GET');
    expect(reply.body).toEqual({ detail: expect.stringContaining('DELETE') });
  });
});
