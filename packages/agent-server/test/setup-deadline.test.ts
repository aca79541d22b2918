import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/http.ts';
import { type TestServer, startRequest, startTestServer } from './support/server.ts';

/**
 * Building a conversation's agent has one deadline (`conversation_setup_timeout`): plugins and skill
 * repositories fetched from a Git host that never answers, and an MCP server that never starts, do not hold the
 * conversation. It starts without them, and its events say what is missing.
 */
let gitHost: Server;
const held: Socket[] = [];
let started: TestServer;

beforeAll(async () => {
  // Takes every request and answers none (a Git host behind a network that drops the answers).
  gitHost = createServer((request) => {
    held.push(request.socket);
  });
  await new Promise<void>((resolve) => gitHost.listen(0, '127.0.0.1', resolve));
  const hostUrl = `http://127.0.0.1:${(gitHost.address() as AddressInfo).port}`;
  started = await startTestServer({
    runner: undefined,
    setupTimeoutMs: 1500,
    gitProviders: { github: hostUrl },
    defaultLlm: { model: 'test-model', base_url: 'http://127.0.0.1:9/v1', api_key: 'k' },
  });
});

afterAll(async () => {
  for (const socket of held) socket.destroy();
  gitHost.close();
  await started.close();
});

interface EventsPage {
  items: { kind: string; code?: string; detail?: string; key?: string; value?: unknown }[];
}

describe('a conversation whose plugins, skills and MCP servers do not load in time', () => {
  it('starts without them and says so in its events', async () => {
    const request = startRequest();
    const agent = request.agent as Record<string, unknown>;
    const body = {
      ...request,
      agent: {
        ...agent,
        agent_context: { skill_repositories: [{ source: 'github:acme/skills' }] },
        mcp_config: {
          stuck: { command: 'sleep', args: ['300'], startup_timeout: 600, enabled: true },
        },
      },
      plugins: [{ source: 'github:acme/plugin' }],
    };
    const created = await call<{ id: string }>(started.url, '/api/conversations', { method: 'POST', json: body });
    expect(created.status, created.text).toBe(201);
    const events = await call<EventsPage>(started.url, `/api/conversations/${created.body.id}/events/search?limit=100`);
    const errors = events.body.items.filter((event) => event.kind === 'ConversationErrorEvent');
    expect(errors).toContainEqual(
      expect.objectContaining({
        code: 'PluginLoadFailed',
        detail: expect.stringContaining('did not load within 1.5 s'),
      }),
    );
    expect(errors).toContainEqual(expect.objectContaining({ code: 'MCPServerError' }));
    const skills = events.body.items.find(
      (event) => event.kind === 'ConversationStateUpdateEvent' && event.key === 'skills',
    );
    expect(JSON.stringify(skills?.value)).toContain('Skills did not load within 1.5 s');
    expect(events.body.items.some((event) => event.kind === 'SystemPromptEvent')).toBe(true);
  });
});
