import { TOOL_NAMES } from '@bosun/agent';
import { describe, expect, it } from 'vitest';
import { call } from './support/http.ts';
import { testServerPerFile } from './support/shared-server.ts';

const server = testServerPerFile({ sessionApiKeys: ['k1'] });

describe('GET /api/tools/', () => {
  it("lists the tool registry's names (what agent.tools takes), behind the session key", async () => {
    const reply = await call<string[]>(server.url, '/api/tools/', { headers: { 'X-Session-API-Key': 'k1' } });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual(TOOL_NAMES);
    expect(reply.body).toEqual(expect.arrayContaining(['terminal', 'file_editor', 'task_tracker', 'glob', 'grep']));
    expect(reply.body).not.toContain('finish');
    expect((await call(server.url, '/api/tools/')).status).toBe(401);
  });

  it('answers without the trailing slash too', async () => {
    const reply = await call<string[]>(server.url, '/api/tools', { headers: { 'X-Session-API-Key': 'k1' } });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual(TOOL_NAMES);
  });

  it('is in the OpenAPI document as an array of strings', async () => {
    const doc = (await call<{ paths: Record<string, Record<string, unknown>> }>(server.url, '/openapi.json')).body;
    expect(Object.keys(doc.paths)).not.toContain('/api/tools');
    expect(doc.paths['/api/tools/']?.get).toMatchObject({
      tags: ['Tools'],
      responses: { 200: { content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } } } },
    });
  });
});
