import { afterEach, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from './support/server.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function create(url: string, body: object): Promise<{ status: number; text: string }> {
  const response = await fetch(`${url}/api/conversations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

describe('default agent', () => {
  it('gives conversations started without an agent the default model, with its key redacted', async () => {
    server = await startTestServer({
      defaultLlm: { model: 'default-model', base_url: 'http://127.0.0.1:9/v1', api_key: 'sk-default-secret' },
    });
    const { status, text } = await create(server.url, { workspace: { working_dir: '/tmp/bosun-default-agent' } });
    expect(status).toBe(201);
    expect(text).not.toContain('sk-default-secret');
    const info = JSON.parse(text) as { agent: { llm: { model: string; api_key: string }; tools: { name: string }[] } };
    expect(info.agent.llm).toMatchObject({ model: 'default-model', api_key: '**********' });
    expect(info.agent.tools.map((tool) => tool.name)).toEqual(['terminal', 'file_editor', 'task_tracker']);
  });

  it('requires an agent, with the other missing fields, when the server has no default model', async () => {
    server = await startTestServer();
    const { status, text } = await create(server.url, {});
    expect(status).toBe(422);
    const { detail } = JSON.parse(text) as { detail: { loc: unknown[]; type: string }[] };
    expect(detail).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ loc: ['body', 'agent'], type: 'missing' }),
        expect.objectContaining({ loc: ['body', 'workspace'], type: 'missing' }),
      ]),
    );
  });

  it('rejects unknown tool names before creating anything', async () => {
    // No runner given: the server's own agent runner, which knows the tools.
    server = await startTestServer({ runner: undefined });
    const { status, text } = await create(server.url, {
      agent: { llm: { model: 'm' }, tools: [{ name: 'terminal' }, { name: 'teleporter' }] },
      workspace: { working_dir: '/tmp/bosun-default-agent' },
    });
    expect(status).toBe(422);
    expect(JSON.parse(text).detail[0]).toMatchObject({
      loc: ['body', 'agent', 'tools', 1, 'name'],
      type: 'value_error',
    });
    const count = await (await fetch(`${server.url}/api/conversations/count`)).json();
    expect(count).toBe(0);
  });

  it('rejects tool parameters of the wrong type, and ignores parameters no tool reads', async () => {
    server = await startTestServer({ runner: undefined });
    const { status, text } = await create(server.url, {
      agent: {
        llm: { model: 'm' },
        tools: [
          { name: 'terminal', params: { soft_timeout_seconds: 'ten', no_such_param: true } },
          { name: 'browser_tool_set', params: { navigation_timeout_seconds: 0 } },
        ],
      },
      workspace: { working_dir: '/tmp/bosun-default-agent' },
    });
    expect(status).toBe(422);
    expect(JSON.parse(text).detail).toEqual([
      {
        loc: ['body', 'agent', 'tools', 0, 'params', 'soft_timeout_seconds'],
        msg: 'Input should be a number of seconds greater than 0, got "ten"',
        type: 'greater_than',
      },
      {
        loc: ['body', 'agent', 'tools', 1, 'params', 'navigation_timeout_seconds'],
        msg: 'Input should be a number of seconds greater than 0, got 0',
        type: 'greater_than',
      },
    ]);
    const valid = await create(server.url, {
      agent: { llm: { model: 'm' }, tools: [{ name: 'terminal', params: { soft_timeout_seconds: 5, extra: 1 } }] },
      workspace: { working_dir: '/tmp/bosun-default-agent' },
    });
    expect(valid.status, valid.text).toBe(201);
  });
});
