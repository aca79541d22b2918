import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppServerClient, BosunApiError } from '@bosun/client';
import type { PluginSpec } from '@bosun/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TestRepository } from '../../../sources/test/git/support.ts';
import { type TestUser, describeApi } from '../api/harness.ts';

/** The provider base URL `github:` sources are read from: bare repositories made here. */
const remotes = mkdtempSync(join(tmpdir(), 'bosun-trust-remotes-'));
afterAll(() => rmSync(remotes, { recursive: true, force: true }));

// A start that gets past the trust check ends at once: its sandbox does not exist (no sandbox is started).
const start = (plugins: PluginSpec[], extra: object = {}) => ({ sandbox_id: 'no-such-sandbox', plugins, ...extra });

describeApi(
  'plugin trust',
  (api) => {
    let user: TestUser;
    let repository: TestRepository;
    let first: string;
    let trustedSource: string;
    const post = (path: string, body: unknown, as = user) => api().call(path, { method: 'POST', as, body });
    const trusted = async (as = user) => (await api().call('/api/v1/plugin-trust', { as })).body.items;

    beforeAll(async () => {
      user = await api().user();
      // One repository per database run: the tests move its branch.
      const name = `acme/trusted-${crypto.randomUUID().slice(0, 8)}`;
      trustedSource = `github:${name}`;
      repository = await TestRepository.create(remotes, name);
      first = await repository.commit({ '.claude-plugin/plugin.json': JSON.stringify({ name: 'trusted' }) });
    });

    it('refuses plugins from a source not confirmed with a 409 naming it at the commit its ref names', async () => {
      const before = (await api().call('/api/v1/app-conversations/start-tasks/count', { as: user })).body;
      // As OpenHands' clients send it: no confirmation field.
      for (const path of ['/api/v1/app-conversations', '/api/v1/app-conversations/stream-start']) {
        const refused = await post(path, start([{ source: trustedSource, ref: 'main', parameters: { k: 'v' } }]));
        expect(refused.status, refused.text).toBe(409);
        expect(refused.body).toEqual({
          detail: expect.stringContaining(trustedSource),
          sources: [{ source: trustedSource, commit: first }],
        });
      }
      expect((await api().call('/api/v1/app-conversations/start-tasks/count', { as: user })).body).toBe(before);
      expect(await trusted()).toEqual([]);
    });

    it('starts once the request confirms, records the confirmation, and asks again when the branch moves', async () => {
      const confirmed = await post(
        '/api/v1/app-conversations',
        start([{ source: trustedSource, ref: 'main' }], {
          confirmed_plugin_sources: [{ source: trustedSource, commit: first }],
        }),
      );
      expect(confirmed.status, confirmed.text).toBe(200);
      // The task echoes the request as sent (the commit it was pinned to is what the sandbox loads).
      expect(confirmed.body.request.plugins).toEqual([{ source: trustedSource, ref: 'main' }]);
      expect(await trusted()).toEqual([
        { id: expect.any(String), source: trustedSource, commit: first, confirmed_at: expect.any(String) },
      ]);
      expect((await post('/api/v1/app-conversations', start([{ source: trustedSource }]))).status).toBe(200);
      // Another user has confirmed nothing.
      const other = await api().user();
      expect((await post('/api/v1/app-conversations', start([{ source: trustedSource }]), other)).status).toBe(409);

      const second = await repository.commit({ 'README.md': 'changed\n' });
      const moved = await post('/api/v1/app-conversations', start([{ source: trustedSource, ref: 'main' }]));
      expect(moved.status).toBe(409);
      expect(moved.body.sources).toEqual([{ source: trustedSource, commit: second }]);
      // The commit confirmed before, named by its SHA, still starts.
      expect((await post('/api/v1/app-conversations', start([{ source: trustedSource, ref: first }]))).status).toBe(
        200,
      );
    });

    it('trusts any commit of a source confirmed without one, until revoked', async () => {
      const any = await post('/api/v1/plugin-trust', { source: 'github:acme/other', commit: null });
      expect(any.status, any.text).toBe(200);
      expect((await post('/api/v1/plugin-trust', { source: 'github:acme/other', commit: null })).body.id).toBe(
        any.body.id,
      );
      // Never fetched by the server (not on a provider): its commit is unknown, so only "any commit" trusts it.
      const elsewhere = 'https://git.example.invalid/team/tool.git';
      const unknown = await post('/api/v1/app-conversations', start([{ source: elsewhere, ref: 'main' }]));
      expect(unknown.body.sources).toEqual([{ source: elsewhere, commit: null }]);
      const pinned = await post('/api/v1/app-conversations', start([{ source: elsewhere, ref: 'A'.repeat(40) }]));
      expect(pinned.body.sources).toEqual([{ source: elsewhere, commit: 'a'.repeat(40) }]);
      expect((await post('/api/v1/app-conversations', start([{ source: 'github:acme/other' }]))).status).toBe(200);

      const revoked = await api().call(`/api/v1/plugin-trust/${any.body.id}`, { method: 'DELETE', as: user });
      expect(revoked.status).toBe(200);
      expect((await post('/api/v1/app-conversations', start([{ source: 'github:acme/other' }]))).status).toBe(409);
      const again = await api().call(`/api/v1/plugin-trust/${any.body.id}`, { method: 'DELETE', as: user });
      expect(again).toMatchObject({ status: 404, body: { detail: 'Trust confirmation not found' } });
    });

    it('is reachable through the typed client, the 409’s sources included', async () => {
      const client = new AppServerClient({ baseUrl: api().url, apiKey: (await api().user()).key });
      const refused = await client
        .post('/api/v1/app-conversations', { body: start([{ source: trustedSource }]) })
        .catch((error) => error);
      expect(refused).toBeInstanceOf(BosunApiError);
      expect(refused.status).toBe(409);
      expect(refused.body.sources).toEqual([
        { source: trustedSource, commit: expect.stringMatching(/^[0-9a-f]{40}$/) },
      ]);
      const trust = await client.post('/api/v1/plugin-trust', { body: refused.body.sources[0] });
      expect((await client.get('/api/v1/plugin-trust')).items).toEqual([trust]);
      expect(
        (await client.post('/api/v1/app-conversations', { body: start([{ source: trustedSource }]) })).status,
      ).toBe('WORKING');
      await client.delete('/api/v1/plugin-trust/{trust_id}', { params: { trust_id: trust.id } });
      expect((await client.get('/api/v1/plugin-trust')).items).toEqual([]);
    });

    it('answers 422 for a malformed confirmation', async () => {
      const bad = await post('/api/v1/plugin-trust', { source: trustedSource, commit: 'main' });
      expect(bad.status).toBe(422);
      expect(bad.body.detail[0].loc).toEqual(['body', 'commit']);
      const badId = await api().call('/api/v1/plugin-trust/not-a-uuid', { method: 'DELETE', as: user });
      expect(badId.status).toBe(422);
      const inStart = await post(
        '/api/v1/app-conversations',
        start([{ source: trustedSource }], { confirmed_plugin_sources: [{}] }),
      );
      expect(inStart.status).toBe(422);
    });
  },
  { config: { git_github_url: `file://${remotes}` } },
);
