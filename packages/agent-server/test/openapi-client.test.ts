import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { generateApi } from 'swagger-typescript-api';
import { describe, expect, it } from 'vitest';
import { call } from './support/http.ts';
import { startRequest } from './support/server.ts';
import { tempDirPerFile, testServerPerFile } from './support/shared-server.ts';

const TSC = resolve(import.meta.dirname, '../../../node_modules/.bin/tsc');

/** Uses the generated client as an application would: strict types, optional parameters left out. */
const USAGE = `import { Api } from './client.js';
export async function use(baseUrl: string, key: string) {
  const api = new Api<string>({
    baseUrl,
    securityWorker: (k) => (k ? { headers: { 'X-Session-API-Key': k } } : {}),
  });
  api.setSecurityData(key);
  const page = await api.api.searchConversationsApiConversationsSearchGet();
  const count = await api.api.countConversationsApiConversationsCountGet();
  const first = page.data.items[0];
  const events = first
    ? await api.api.searchConversationEventsApiConversationsConversationIdEventsSearchGet(first.id)
    : undefined;
  const info = await api.serverInfo.getServerInfoServerInfoGet();
  return { ids: page.data.items.map((item) => item.id), count: count.data, events: events?.data.items.length, idle: info.data.idle_time };
}
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    lib: ['ES2022', 'DOM'],
    types: [],
  },
  files: ['client.ts', 'usage.ts'],
};

const server = testServerPerFile({ sessionApiKeys: ['k1'] });
const dir = tempDirPerFile('bosun-openapi-client-');

describe('a client generated from the live OpenAPI document', () => {
  it('type-checks strictly and calls the server with its session key', async () => {
    const spec = (await call<Record<string, unknown>>(server.url, '/openapi.json')).body;
    await generateApi({ spec: spec as never, output: dir, fileName: 'client.ts', silent: true });
    await writeFile(join(dir, 'usage.ts'), USAGE);
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    const checked = await promisify(execFile)(TSC, ['-p', join(dir, 'tsconfig.json')]).catch(
      (error: { stdout: string; code: number }) => error,
    );
    expect(checked.stdout).toBe('');

    const created = await call<{ id: string }>(server.url, '/api/conversations', {
      method: 'POST',
      json: startRequest(),
      headers: { 'X-Session-API-Key': 'k1' },
    });
    expect(created.status).toBe(201);
    const usage = (await import(pathToFileURL(join(dir, 'usage.ts')).href)) as {
      use(url: string, key: string): Promise<{ ids: string[]; count: number; events: number; idle: number }>;
    };
    const result = await usage.use(server.url, 'k1');
    expect(result).toMatchObject({ ids: [created.body.id], count: 1, events: 0, idle: expect.any(Number) });
    await expect(usage.use(server.url, 'wrong')).rejects.toMatchObject({ status: 401 });
  });
});
