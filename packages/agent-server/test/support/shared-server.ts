import { afterAll, beforeAll } from 'vitest';
import { createConversation } from './http.ts';
import { type TestServer, startTestServer } from './server.ts';

/** A test server and one conversation on it, shared by the calling file's tests (started before, closed after). */
export function serverWithConversationPerFile(): { server: TestServer; conversationId: string } {
  const shared = {} as { server: TestServer; conversationId: string };
  beforeAll(async () => {
    shared.server = await startTestServer();
    shared.conversationId = (await createConversation(shared.server.url)).id;
  });
  afterAll(() => shared.server.close());
  return shared;
}
