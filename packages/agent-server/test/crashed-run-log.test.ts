import { describe, expect, it } from 'vitest';
import type { AgentRunner } from '../src/index.ts';
import { call, createConversation, untilStatus } from './support/http.ts';
import { startTestServer } from './support/server.ts';

/** A run that crashes is an event for the client and, for whoever operates the server, a log line with its stack. */

describe('a crashed run', () => {
  it('is logged at error level with the conversation id and the stack of the error', async () => {
    const logs: string[] = [];
    const runner: AgentRunner = {
      async run() {
        throw new TypeError('the agent broke');
      },
    };
    const server = await startTestServer({
      runner,
      logLevel: 'info',
      logStream: { write: (line: string) => logs.push(line) },
    });
    try {
      const info = await createConversation(server.url);
      expect((await call(server.url, `/api/conversations/${info.id}/run`, { method: 'POST' })).status).toBe(200);
      await untilStatus(server.url, info.id, 'error');
      const crashes = logs.map((line) => JSON.parse(line)).filter((line) => line.msg === 'run crashed');
      expect(crashes).toEqual([
        expect.objectContaining({
          level: 50,
          conversation_id: info.id,
          err: expect.objectContaining({ type: 'TypeError', message: 'the agent broke' }),
        }),
      ]);
      expect(crashes[0].err.stack).toMatch(/^TypeError: the agent broke\n\s+at .*crashed-run-log\.test\.ts/);
    } finally {
      await server.close();
    }
  });
});
