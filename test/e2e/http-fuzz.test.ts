import { readdir } from 'node:fs/promises';
import type { LlmReplay } from '@bosun/llm-replay';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { type FuzzContext, type Operation, operationsOf, requestFor } from './fuzz-requests.ts';
import { fuzz, fuzzSettings } from './fuzz-run.ts';
import type { Schema } from './schema-arbitraries.ts';
import { type E2EServer, llmConfig, startStack } from './support.ts';

/**
 * Requests generated from the server's own OpenAPI document (every operation; path, query and body filled with
 * valid and invalid values) against a real server whose runs talk to llm-replay. Whatever the input: no 5xx,
 * an answer within a bound, and every 4xx in the one error shape. `BOSUN_FUZZ_SEED` replays a run,
 * `BOSUN_FUZZ_RUNS` changes its size.
 */
const { runs: RUNS, seed: SEED } = fuzzSettings(2500);
const ANSWER_WITHIN_MS = 10_000;

const SAFE_TOOLS = ['terminal', 'file_editor', 'task_tracker'];

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => !!value && typeof value === 'object' && !Array.isArray(value);

/**
 * Generated bodies may be acted on, so whatever could run a command, reach the network or touch a path outside
 * the test's is pinned: the LLM is llm-replay, the workspace and project directory the test's; MCP servers, hooks,
 * plugins, skill sources and critics are dropped when they could be valid. A wrong type is kept (it is a 422).
 */
function sanitizer(server: E2EServer, llm: LlmReplay) {
  const dropIfValid = (object: Json, keys: string[]) => {
    for (const key of keys) if (object[key] !== null && typeof object[key] === 'object') delete object[key];
  };
  return (operation: Operation, body: unknown): unknown => {
    if (!isObject(body)) return body;
    const copy = { ...body };
    if (operation.method === 'POST' && operation.path === '/api/conversations') {
      if (isObject(copy.agent)) {
        const agent = { ...copy.agent };
        if (isObject(agent.llm)) {
          const { log_completions_folder: _f, custom_tokenizer: _t, ollama_base_url: _o, ...rest } = agent.llm;
          agent.llm = { ...rest, ...llmConfig(llm, { numRetries: 0, timeout: 5 }), model: rest.model ?? 'test-model' };
        }
        dropIfValid(agent, ['mcp_config', 'agent_context', 'condenser', 'critic']);
        // Tool names are known at run time only: a name the server has (never the browser: it starts Chromium).
        if (Array.isArray(agent.tools)) {
          agent.tools = agent.tools.map((tool) =>
            isObject(tool) && typeof tool.name === 'string'
              ? { ...tool, name: SAFE_TOOLS[tool.name.length % SAFE_TOOLS.length] }
              : tool,
          );
        }
        copy.agent = agent;
      }
      if (isObject(copy.workspace)) copy.workspace = { ...copy.workspace, working_dir: server.workspace };
      dropIfValid(copy, ['plugins', 'hook_config']);
    }
    // A switched LLM is pinned as a started one is: the LLM the conversations talk to stays llm-replay.
    if (operation.method === 'POST' && operation.path.endsWith('/switch_llm') && isObject(copy.llm)) {
      copy.llm = { ...copy.llm, ...llmConfig(llm, { numRetries: 0, timeout: 5 }) };
    }
    if (operation.path === '/api/skills') {
      if (typeof copy.project_dir === 'string') copy.project_dir = server.workspace;
      if (typeof copy.marketplace_path === 'string') copy.marketplace_path = server.workspace;
      dropIfValid(copy, [
        'org_configs',
        'org_config',
        'skill_repositories',
        'registered_marketplaces',
        'sandbox_config',
      ]);
    }
    return copy;
  };
}

it('runs its commands in the test workspace, never in the checkout the tests run from', async () => {
  const { server } = await startStack({ turns: [{ content: 'Done.' }] });
  const reply = await server.api<{ stdout: string }>('POST', '/api/bash/execute_bash_command', { command: 'pwd' });
  expect(reply.status, reply.text).toBe(200);
  expect(reply.body.stdout.trim()).toBe(server.workspace);
  expect(server.workspace.startsWith(process.cwd())).toBe(false);
});

it(`answers ${RUNS} generated requests without a 5xx, a hang, or another error shape`, async () => {
  const checkout = await readdir(process.cwd());
  const { server, llm } = await startStack({ turns: [{ content: 'Done.' }], repeat_last: true });
  const document = (await server.api<Json>('GET', '/openapi.json')).body;
  const components = (document.components as { schemas: Record<string, Schema> }).schemas;
  const talked = await server.startConversation(llm, { message: 'Hello' });
  const quiet = await server.startConversation(llm);
  await server.waitForStatus(talked.id, 'finished');
  const events = await server.allEvents(talked.id);

  const conversations = [talked.id, quiet.id];
  const context: FuzzContext = {
    components,
    pathValues: {
      conversation_id: conversations,
      event_id: events.map((event) => event.id),
      file_name: ['recording.json'],
    },
    sanitize: sanitizer(server, llm),
  };
  const operations = operationsOf(document);
  expect(operations.length).toBeGreaterThan(20);
  const requests = fc.oneof(...operations.map((operation) => requestFor(operation, context)));

  await fuzz({
    url: server.url,
    requests,
    runs: RUNS,
    seed: SEED,
    withinMs: ANSWER_WITHIN_MS,
    // A deleted conversation is replaced, so that later requests still reach existing ones.
    after: async (request, reply) => {
      const deleted = conversations.findIndex((id) => request.url === `/api/conversations/${id}`);
      if (request.method === 'DELETE' && reply.status === 200 && deleted !== -1) {
        conversations[deleted] = (await server.startConversation(llm)).id;
      }
    },
  });
  // Generated commands (`>x` is a valid one) create files where they run: none lands in the checkout.
  expect(await readdir(process.cwd())).toEqual(checkout);
}, 180_000);
