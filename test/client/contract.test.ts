import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAgentServer, idleRunner } from '@bosun/agent-server';
import { AGENT_SERVER_OPERATIONS, DEFAULTED_REQUEST_PROPERTIES } from '@bosun/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenApiDocument, contractProblems, defaultedRequestProperties } from './openapi-contract.ts';

let document: OpenApiDocument;
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'bosun-client-contract-'));
  const server = await buildAgentServer({ dataDir, runner: idleRunner });
  document = (await server.app.inject({ method: 'GET', url: '/openapi.json' })).json() as OpenApiDocument;
  await server.close();
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe("the agent server client and the agent server's OpenAPI document", () => {
  it('agree on every route the client calls: method, path, parameters and body', () => {
    expect(contractProblems(AGENT_SERVER_OPERATIONS, document)).toEqual([]);
  });

  it('a renamed route, path parameter or query parameter, or a body left out, is found', () => {
    const changed = {
      renamed: { ...AGENT_SERVER_OPERATIONS.getConversation, path: '/api/conversation/{conversation_id}' },
      parameter: { ...AGENT_SERVER_OPERATIONS.getEvent, path: '/api/conversations/{conversation_id}/events/{id}' },
      query: { ...AGENT_SERVER_OPERATIONS.searchEvents, query: ['kind', 'page'] },
      noBody: { method: 'POST', path: '/api/conversations/{conversation_id}/fork' },
      method: { ...AGENT_SERVER_OPERATIONS.updateConversation, method: 'PUT' },
    } as const;
    const problems = contractProblems(changed as never, document);
    expect(problems.map((p) => p.split(' ')[0])).toEqual(['renamed', 'parameter', 'query', 'noBody', 'method']);
  });

  it('leaves optional in request types exactly the properties the server fills in with a default', () => {
    expect([...DEFAULTED_REQUEST_PROPERTIES].sort()).toEqual(
      defaultedRequestProperties(AGENT_SERVER_OPERATIONS, document),
    );
  });
});
