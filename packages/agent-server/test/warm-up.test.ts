import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { describe, expect, it, onTestFinished } from 'vitest';
import { call } from './support/http.ts';
import { startTestServer } from './support/server.ts';
import { WebhookReceiver } from './support/webhook-receiver.ts';

const warmUpDirs = async () => (await readdir(tmpdir())).filter((name) => name.startsWith('bosun-warm-up-'));

describe('the warm-up of a fresh agent server (warm_up)', () => {
  it('runs before the server is ready and leaves nothing seen: no conversation, no webhook, no files', async () => {
    const receiver = await new WebhookReceiver().start();
    onTestFinished(() => receiver.stop());
    const lines: string[] = [];
    const before = await warmUpDirs();
    const started = await startTestServer({
      runner: undefined,
      warmUp: true,
      sessionApiKeys: ['warm-key'],
      webhooks: { baseUrl: receiver.baseUrl, flushMs: 0, batchSize: 50 },
      logLevel: 'info',
      logStream: { write: (line: string) => lines.push(line) },
    });
    onTestFinished(started.close);
    const log = lines.join('');
    expect(log).toContain('warmed up: the first conversation will not pay for it');
    expect(log).not.toContain('warm-up failed');
    const headers = { 'x-session-api-key': 'warm-key' };
    expect((await call(started.url, '/ready', { headers })).body).toEqual({ status: 'ready' });
    const listed = await call<{ items: unknown[] }>(started.url, '/api/conversations/search', { headers });
    expect(listed.body.items).toEqual([]);
    expect(receiver.attempts).toBe(0);
    expect((await warmUpDirs()).filter((name) => !before.includes(name))).toEqual([]);
  });
});
