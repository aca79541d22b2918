import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/http.ts';
import { type TestServer, startTestServer } from './support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

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
      node_version: process.version,
      docs: '/docs',
    });
    expect(Number.isInteger(reply.body.uptime)).toBe(true);
    expect(reply.body.uptime as number).toBeGreaterThanOrEqual(0);
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

  it('answers 404 for a method a route does not have', async () => {
    const reply = await call(server.url, '/alive', { method: 'DELETE' });
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ detail: 'Not Found' });
  });
});
