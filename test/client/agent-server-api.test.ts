import { readFile } from 'node:fs/promises';
import { AgentServerClient } from '@bosun/client';
import { describe, expect, it } from 'vitest';
import { AGENT_SERVER_API_FILE, agentServerApiModule } from '../../scripts/client-api/generate.ts';

describe("the client's types of the agent server's operations", () => {
  it('are those of the server’s OpenAPI document as it is now (else: npm run generate:client)', async () => {
    const written = await readFile(AGENT_SERVER_API_FILE, 'utf8');
    expect(written, 'the routes changed: run `npm run generate:client` and commit the file').toBe(
      await agentServerApiModule(),
    );
  });

  it('type each call by its path and method: parameters, query, body (defaults left out) and answer', () => {
    const client = new AgentServerClient({ baseUrl: 'http://127.0.0.1:9' });
    // Only checked by the compiler: nothing is sent.
    const calls = () => [
      client
        .get('/api/conversations/{conversation_id}/events/search', {
          params: { conversation_id: 'c' },
          query: { kind: 'MessageEvent', limit: 5 },
        })
        .then((page) => page.items[0]?.id.length),
      client.post('/api/conversations/{conversation_id}/events', {
        params: { conversation_id: 'c' },
        body: { content: [{ type: 'text', text: 'hi' }] },
      }),
      // @ts-expect-error: a path the server does not have
      client.get('/api/nowhere'),
      // @ts-expect-error: the path parameter is missing
      client.post('/api/conversations/{conversation_id}/run'),
      // @ts-expect-error: a query parameter the operation does not take
      client.get('/api/conversations/search', { query: { size: 5 } }),
      // @ts-expect-error: the wrong method for the path
      client.delete('/api/conversations/search'),
      // @ts-expect-error: the body is required
      client.post('/api/bash/execute_bash_command', {}),
    ];
    expect(calls).toBeTypeOf('function');
  });
});
