import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { AgentServerOptions } from '../../src/index.ts';
import { createConversation } from './http.ts';
import { type TestServer, startTestServer } from './server.ts';

/** A test server and one conversation on it, shared by the calling file's tests (started before, closed after). */
export function serverWithConversationPerFile(): { server: TestServer; conversationId: string } {
  const shared = { server: testServerPerFile(), conversationId: '' };
  beforeAll(async () => {
    shared.conversationId = (await createConversation(shared.server.url)).id;
  });
  return shared;
}

/**
 * A test server shared by the calling file's tests: started before them, after what the file's earlier hooks set
 * up (`options` may be a function, to read what they made), and closed after them, before what those hooks undo
 * (Vitest runs the after hooks in reverse). The returned object is the started `TestServer` once the file's tests
 * run.
 */
export function testServerPerFile(
  options: Partial<AgentServerOptions> | (() => Partial<AgentServerOptions>) = {},
): TestServer {
  const shared = {} as TestServer;
  beforeAll(async () => {
    Object.assign(shared, await startTestServer(typeof options === 'function' ? options() : options));
  });
  // Closed only if it started: a failed start is the error to read.
  afterAll(() => shared.close?.());
  return shared;
}

/** The path of a fresh directory for the calling file's tests: made before them, removed after them. */
export function tempDirPerFile(prefix: string): string {
  const dir = join(tmpdir(), `${prefix}${randomUUID()}`);
  beforeAll(async () => {
    await mkdir(dir);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  return dir;
}
