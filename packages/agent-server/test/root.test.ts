import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/http.ts';
import { type TestServer, startTestServer } from './support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ sessionApiKeys: ['root-key'] });
});
afterAll(async () => {
  await server.close();
});

describe('GET /', () => {
  it('answers the server info, as /server_info does, without a key (OpenHands without static files)', async () => {
    const root = await call<Record<string, unknown>>(server.url, '/');
    expect(root.status).toBe(200);
    const info = await call<Record<string, unknown>>(server.url, '/server_info');
    const { uptime: _a, idle_time: _b, ...stable } = root.body;
    const { uptime: _c, idle_time: _d, ...expected } = info.body;
    expect(stable).toEqual(expected);
    expect(root.body).toMatchObject({ title: expect.any(String), version: expect.any(String), docs: '/docs' });
    expect(root.body.uptime).toEqual(expect.any(Number));
  });
});
