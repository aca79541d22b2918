import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type EventBody, allEvents, call, createConversation, untilStatus } from './support/http.ts';
import { tempDirPerFile, testServerPerFile } from './support/shared-server.ts';

/**
 * A LookupSecret's value is read from its URL when the terminal needs it: a value that changed since reaches the
 * next command, it is masked in what the terminal returns, and a lookup that fails is the command's error.
 */

const HEADER_VALUE = 'lookup-header-very-secret';
const VALUE_PREFIX = 'looked-up-value-000';
/** Every lookup the secret server answered, with the header it was sent. */
const lookups: { path: string; auth: string | undefined }[] = [];
let secretServer: Server;
let secretUrl: string;

beforeAll(async () => {
  secretServer = createServer((request, response) => {
    lookups.push({ path: request.url ?? '', auth: request.headers['x-lookup-auth'] as string | undefined });
    if (request.url === '/refused' || request.headers['x-lookup-auth'] !== HEADER_VALUE) {
      response.writeHead(403).end('no');
      return;
    }
    // A new value at each lookup: the last character counts them.
    const count = lookups.filter((lookup) => lookup.path === request.url).length;
    response.writeHead(200, { 'content-type': 'text/plain' }).end(`${VALUE_PREFIX}${count}`);
  });
  await new Promise<void>((resolve) => secretServer.listen(0, '127.0.0.1', resolve));
  secretUrl = `http://127.0.0.1:${(secretServer.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => secretServer.close(() => resolve())));

const workspace = tempDirPerFile('bosun-lookup-ws-');
const server = testServerPerFile({ runner: undefined, workspaceRoot: workspace });
let replay: LlmReplay | undefined;
afterEach(async () => {
  await replay?.close();
  replay = undefined;
});

const terminal = (command: string) => ({ tool_calls: [{ name: 'terminal', arguments: { command } }] });
const finish = { tool_calls: [{ name: 'finish', arguments: { message: 'done' } }] };
/** Prints the whole value (to be masked) and its last character (the lookup's count, too short to mask). */
const PRINT = 'echo "full:$LOOKED last:${LOOKED: -1}"';

async function runWith(
  secrets: Record<string, unknown>,
  turns: object[],
): Promise<{ id: string; events: EventBody[] }> {
  replay = await startLlmReplay({ script: { turns } });
  const info = await createConversation(server.url, {
    agent: { llm: { model: 'openai/replay', base_url: replay.baseUrl, api_key: 'k' }, tools: [{ name: 'terminal' }] },
    workspace: { working_dir: workspace },
    secrets,
    initial_message: { role: 'user', content: [{ type: 'text', text: 'go' }] },
  });
  await untilStatus(server.url, info.id, 'finished');
  return { id: info.id, events: await allEvents(server.url, info.id) };
}

const outputs = (events: EventBody[]) =>
  events
    .filter((event) => event.kind === 'ObservationEvent')
    .map((event) => JSON.stringify((event as { observation?: unknown }).observation));

describe('LookupSecret', () => {
  it('is looked up before each command: the second command sees the new value, masked in both outputs', async () => {
    const lookup = { kind: 'LookupSecret', url: `${secretUrl}/token`, headers: { 'X-Lookup-Auth': HEADER_VALUE } };
    const { id, events } = await runWith({ LOOKED: lookup }, [terminal(PRINT), terminal(PRINT), finish]);
    const [first, second] = outputs(events);
    expect(first).toContain('full:<secret-hidden> last:');
    expect(second).toContain('full:<secret-hidden> last:');
    const lastOf = (output = '') => Number(/last:(\d)/.exec(output)?.[1]);
    expect(lastOf(second)).toBeGreaterThan(lastOf(first));
    expect(lookups.filter((lookup) => lookup.path === '/token').every((lookup) => lookup.auth === HEADER_VALUE)).toBe(
      true,
    );
    const text = JSON.stringify(events);
    expect(text).not.toContain(VALUE_PREFIX);
    expect(text).not.toContain(HEADER_VALUE);
    const info = await call<{ secret_registry: unknown }>(server.url, `/api/conversations/${id}`);
    expect(info.text).not.toContain(HEADER_VALUE);
    expect(info.body.secret_registry).toEqual({
      secret_sources: {
        LOOKED: { kind: 'LookupSecret', url: `${secretUrl}/token`, headers: { 'X-Lookup-Auth': '**********' } },
      },
    });
  });

  it('that fails is the command’s error, and the conversation goes on', async () => {
    const refused = { kind: 'LookupSecret', url: `${secretUrl}/refused`, headers: { 'X-Lookup-Auth': HEADER_VALUE } };
    const { events } = await runWith({ REFUSED: refused }, [terminal('echo should-not-run'), finish]);
    const [output] = outputs(events);
    expect(output).toContain('The secret REFUSED could not be looked up: the lookup answered HTTP 403');
    expect(output).not.toContain('should-not-run\\n');
    expect(JSON.stringify(events)).not.toContain(HEADER_VALUE);
  });

  it('may be added by POST .../secrets, and a URL that is not http(s) is refused (422)', async () => {
    const info = await createConversation(server.url, { workspace: { working_dir: workspace } });
    const path = `/api/conversations/${info.id}/secrets`;
    const added = await call(server.url, path, {
      method: 'POST',
      json: {
        secrets: { ADDED: { kind: 'LookupSecret', url: `${secretUrl}/token`, headers: { 'X-K': HEADER_VALUE } } },
      },
    });
    expect(added.status, added.text).toBe(200);
    const events = await allEvents(server.url, info.id);
    expect(JSON.stringify(events)).toContain('"kind":"LookupSecret"');
    expect(JSON.stringify(events)).not.toContain(HEADER_VALUE);
    // A credential in the URL's query is as secret as the headers.
    const inQuery = { kind: 'LookupSecret', url: `${secretUrl}/token?access_token=${HEADER_VALUE}&v=1` };
    expect((await call(server.url, path, { method: 'POST', json: { secrets: { IN_QUERY: inQuery } } })).status).toBe(
      200,
    );
    const shown = await call<{ secret_registry: { secret_sources: Record<string, unknown> } }>(
      server.url,
      `/api/conversations/${info.id}`,
    );
    expect(shown.body.secret_registry.secret_sources.IN_QUERY).toEqual({
      kind: 'LookupSecret',
      url: `${secretUrl}/token?access_token=<redacted>&v=1`,
      headers: {},
    });
    expect(JSON.stringify(await allEvents(server.url, info.id))).not.toContain(HEADER_VALUE);
    const bad = await call<{ detail: unknown[] }>(server.url, path, {
      method: 'POST',
      json: { secrets: { BAD: { kind: 'LookupSecret', url: 'file:///etc/passwd' } } },
    });
    expect(bad.status).toBe(422);
  });
});
