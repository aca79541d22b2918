import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { GITHUB_APP_WEBHOOK, signatureOf, signedWebhook } from '../support/github-webhook.ts';
import { describeApi } from './harness.ts';

const SECRET = 'the-app-webhook-secret';

const created = (id: number) => ({
  action: 'created',
  installation: { id, account: { login: 'acme', type: 'Organization' } },
  repositories: [{ id: 7, full_name: 'acme/.agents', private: true }],
  sender: { login: 'an-admin' },
});

describeApi(
  "the GitHub App's webhook",
  (api) => {
    const recorded = (installation: string) => api().repositories.gitAppEvents.list(installation);

    it('refuses a delivery not signed with the webhook secret (401, the error shape), and records nothing of it', async () => {
      const body = JSON.stringify(created(11));
      const sent = (headers: Record<string, string>) =>
        api().call(GITHUB_APP_WEBHOOK, {
          method: 'POST',
          body,
          headers: { 'x-github-event': 'installation', 'x-github-delivery': randomUUID(), ...headers },
        });
      const refusals = [
        await sent({ 'x-hub-signature-256': signatureOf('another-secret', body) }),
        await sent({ 'x-hub-signature-256': signatureOf(SECRET, `${body} `) }),
        await sent({ 'x-hub-signature-256': signatureOf(SECRET, body).replace('sha256=', 'sha1=') }),
        await sent({ 'x-hub-signature-256': 'sha256=00' }),
        await sent({}),
      ];
      for (const refusal of refusals) {
        expect(refusal.status, refusal.text).toBe(401);
        expect(refusal.body).toEqual({ detail: expect.stringContaining('X-Hub-Signature-256') });
      }
      expect(await recorded('11')).toEqual([]);
    });

    it('records an installation event signed with the secret, once per delivery', async () => {
      const delivery = randomUUID();
      for (let i = 0; i < 2; i++) {
        const answer = await signedWebhook(api(), SECRET, 'installation', created(12), delivery);
        expect(answer.status, answer.text).toBe(200);
        expect(answer.body).toEqual({ success: true });
      }
      const removed = {
        action: 'removed',
        installation: { id: 12, account: { login: 'acme' } },
        repositories_added: [],
        repositories_removed: [{ full_name: 'acme/.agents' }],
      };
      expect((await signedWebhook(api(), SECRET, 'installation_repositories', removed)).status).toBe(200);
      const deleted = { action: 'deleted', installation: { id: 12, account: { login: 'acme' } } };
      expect((await signedWebhook(api(), SECRET, 'installation', deleted)).status).toBe(200);
      const events = await recorded('12');
      expect(events).toHaveLength(3);
      // Each once, in any order (two may be received within the same millisecond).
      expect(events).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            deliveryId: delivery,
            event: 'installation',
            action: 'created',
            installationId: '12',
            account: 'acme',
            repositoriesAdded: ['acme/.agents'],
            repositoriesRemoved: [],
          }),
          expect.objectContaining({
            event: 'installation_repositories',
            action: 'removed',
            repositoriesAdded: [],
            repositoriesRemoved: ['acme/.agents'],
          }),
          expect.objectContaining({ event: 'installation', action: 'deleted', repositoriesAdded: [] }),
        ]),
      );
    });

    it('acknowledges a signed event of another kind without recording it, and refuses a signed installation event it cannot read (422)', async () => {
      const ping = await signedWebhook(api(), SECRET, 'ping', { zen: 'Keep it logically awesome.', hook_id: 1 });
      expect(ping.status, ping.text).toBe(200);
      const bad = await signedWebhook(api(), SECRET, 'installation', { action: 'created', installation: { id: 'x' } });
      expect(bad.status, bad.text).toBe(422);
      expect(bad.body.detail).toContainEqual(expect.objectContaining({ loc: ['body', 'installation', 'id'] }));
      const nul = await signedWebhook(api(), SECRET, 'installation', {
        action: 'created',
        installation: { id: 13, account: { login: 'ac\u0000me' } },
      });
      expect(nul.status, nul.text).toBe(422);
      const body = '{"action": "created", "installation": ';
      const broken = await api().call(GITHUB_APP_WEBHOOK, {
        method: 'POST',
        body,
        headers: {
          'x-github-event': 'installation',
          'x-github-delivery': randomUUID(),
          'x-hub-signature-256': signatureOf(SECRET, body),
        },
      });
      expect(broken.status, broken.text).toBe(422);
      expect(broken.body.detail).toEqual([expect.objectContaining({ loc: ['body'], type: 'json_invalid' })]);
      expect(await recorded('13')).toEqual([]);
    });
  },
  { config: { git_github_app_webhook_secret: SECRET } },
);
