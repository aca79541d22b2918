import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { type AppServerConfig, type RunningAppServer, appServerConfig } from '../../src/index.ts';
import { proxiesSandboxUrls } from '../../src/sandboxes/browser-urls.ts';
import { startWholeServer } from '../sandboxes/whole-server.ts';
import { describeEachDatabase } from '../support/databases.ts';

describe('sandbox_urls: which agent server URL browsers are given', () => {
  it('auto proxies unless both the listening address and public_url are loopback', () => {
    const cases: [AppServerConfig['sandbox_urls'], string, string | undefined, boolean][] = [
      ['auto', '127.0.0.1', undefined, false],
      ['auto', 'localhost', 'http://localhost:3000', false],
      ['auto', '::1', 'http://[::1]:3000', false],
      ['auto', '127.0.0.1', 'https://bosun.example.com', true],
      ['auto', '0.0.0.0', undefined, true],
      ['auto', '10.1.2.3', 'http://127.0.0.1:3000', true],
      ['direct', '0.0.0.0', 'https://bosun.example.com', false],
      ['proxied', '127.0.0.1', undefined, true],
    ];
    for (const [setting, host, publicUrl, proxied] of cases) {
      expect(proxiesSandboxUrls(setting, host, publicUrl), `${setting} ${host} ${publicUrl}`).toBe(proxied);
    }
    expect(appServerConfig().sandbox_urls).toBe('auto');
  });
});

describeEachDatabase('sandbox_urls on the wire', (each) => {
  const publicUrl = 'https://bosun.example.test';
  const servers: RunningAppServer[] = [];
  /** A server with `config`, a user's client of it and one running sandbox of theirs with a conversation row. */
  async function started(config: Partial<AppServerConfig>) {
    const whole = await startWholeServer(each, config);
    servers.push(whole.running);
    const user = await whole.user();
    const sandbox = await user.app.post('/api/v1/sandboxes', { body: {} });
    expect(sandbox.status).toBe('RUNNING');
    const id = randomUUID();
    await whole.conversationRow(user.id, sandbox.id, id);
    const app = user.app;
    const [conversation] = await app.get('/api/v1/app-conversations', { query: { ids: [id] } });
    const [listed] = (await app.get('/api/v1/sandboxes/search')).items;
    return { sandbox, listed, conversation, id };
  }
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  }, 120_000);

  it('by default (auto), a public_url elsewhere than loopback gets the proxied URLs', async () => {
    const { sandbox, listed, conversation, id } = await started({ public_url: `${publicUrl}/` });
    const agent = `${publicUrl}/sandboxes/${sandbox.id}/agent`;
    expect(sandbox.exposed_urls).toEqual([{ name: 'AGENT_SERVER', url: agent, port: 443 }]);
    expect(listed?.exposed_urls).toEqual(sandbox.exposed_urls);
    expect(conversation?.conversation_url).toBe(`${agent}/api/conversations/${id}`);
  }, 120_000);

  it('direct gives the sandbox’s own address, whatever public_url says', async () => {
    const { sandbox, conversation, id } = await started({ public_url: publicUrl, sandbox_urls: 'direct' });
    const url = sandbox.exposed_urls?.[0]?.url as string;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.exposed_urls?.[0]?.port).toBe(Number(new URL(url).port));
    expect(conversation?.conversation_url).toBe(`${url}/api/conversations/${id}`);
  }, 120_000);
});
