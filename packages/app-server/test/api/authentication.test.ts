import { describe, expect, it } from 'vitest';
import { prepareOwnerSignIn, signInUrl } from '../../src/identity/sign-in.ts';
import { describeApi } from './harness.ts';

describeApi('authentication', (api) => {
  describe('API keys', () => {
    it('are refused when absent: 401 with a detail', async () => {
      const answer = await api().call('/api/v1/users/me');
      expect(answer.status).toBe(401);
      expect(typeof answer.body.detail).toBe('string');
      expect(answer.headers.get('www-authenticate')).toBe('Bearer');
    });

    it('are accepted in each header form', async () => {
      const user = await api().user();
      for (const headers of <Record<string, string>[]>[
        { authorization: `Bearer ${user.key}` },
        { 'x-session-api-key': user.key },
        { 'x-access-token': user.key },
      ]) {
        const answer = await api().call('/api/v1/users/me', { headers });
        expect(answer.status, JSON.stringify(Object.keys(headers))).toBe(200);
        expect(answer.body).toMatchObject({ id: user.id, email: user.email, org_id: null, role: null });
      }
    });

    it('are refused when unknown, of the wrong prefix or malformed', async () => {
      const user = await api().user();
      const random = user.key.slice('sk-bosun-'.length);
      for (const authorization of [
        `Bearer sk-bosun-${'x'.repeat(random.length)}`,
        `Bearer sk-oh-${random}`,
        `Bearer ${random}`,
        `Basic ${Buffer.from(`me:${user.key}`).toString('base64')}`,
        'Bearer',
      ]) {
        const answer = await api().call('/api/v1/users/me', { headers: { authorization } });
        expect(answer.status, authorization).toBe(401);
      }
    });

    it('do not fall back to a weaker credential after a wrong one', async () => {
      const user = await api().user();
      const answer = await api().call('/api/v1/users/me', {
        headers: { authorization: 'Bearer sk-bosun-wrong', 'x-session-api-key': user.key },
      });
      expect(answer.status).toBe(401);
    });

    it('are refused once expired', async () => {
      const user = await api().user();
      const { key } = await api().repositories.apiKeys.create({
        userId: user.id,
        name: 'expired',
        expiresAt: new Date(Date.now() - 1000).toISOString(),
      });
      expect((await api().call('/api/v1/users/me', { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
    });

    it('are shown once when made, listed without the key, and stop working when deleted', async () => {
      const user = await api().user();
      const made = await api().call('/api/v1/keys', { method: 'POST', as: user, body: { name: 'ci' } });
      expect(made.status).toBe(201);
      expect(made.body.key).toMatch(/^sk-bosun-/);
      expect(made.body).toMatchObject({ name: 'ci', expires_at: null, org_id: null });
      const byNewKey = { authorization: `Bearer ${made.body.key}` };
      expect((await api().call('/api/v1/users/me', { headers: byNewKey })).body.id).toBe(user.id);

      const listed = await api().call('/api/v1/keys', { as: user });
      expect(listed.status).toBe(200);
      expect(listed.body.map((key: { name: string }) => key.name)).toEqual(['test', 'ci']);
      expect(listed.text).not.toContain(made.body.key);
      expect(listed.text).not.toContain(user.key);
      expect(made.body.key.startsWith(listed.body[1].prefix)).toBe(true);

      const deleted = await api().call(`/api/v1/keys/${made.body.id}`, { method: 'DELETE', as: user });
      expect(deleted.status).toBe(200);
      expect((await api().call('/api/v1/users/me', { headers: byNewKey })).status).toBe(401);
      expect((await api().call(`/api/v1/keys/${made.body.id}`, { method: 'DELETE', as: user })).status).toBe(404);
    });

    it('expire at the time they were made with', async () => {
      const user = await api().user();
      const past = await api().call('/api/v1/keys', {
        method: 'POST',
        as: user,
        body: { expires_at: '2001-01-01T00:00:00Z' },
      });
      expect(past.status).toBe(422);
      expect(past.body.detail[0].loc).toEqual(['body', 'expires_at']);
      const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
      const made = await api().call('/api/v1/keys', { method: 'POST', as: user, body: { expires_at: expiresAt } });
      expect(made.status).toBe(201);
      expect(made.body.expires_at).toBe(expiresAt);
    });
  });

  describe('X-Org-Id', () => {
    it('selects an organization of the caller, with their role', async () => {
      const user = await api().user();
      const org = await api().call('/api/v1/organizations', { method: 'POST', as: user, body: { name: 'Acme' } });
      const me = await api().call('/api/v1/users/me', { as: user, headers: { 'x-org-id': org.body.id } });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ org_id: org.body.id, org_name: 'Acme', role: 'owner' });
    });

    it('is a 422 when not a UUID and a 403 when the caller is not a member', async () => {
      const [user, stranger] = [await api().user(), await api().user()];
      const malformed = await api().call('/api/v1/users/me', { as: user, headers: { 'x-org-id': 'acme' } });
      expect(malformed.status).toBe(422);
      expect(malformed.body.detail[0].loc).toEqual(['header', 'X-Org-Id']);
      const org = await api().call('/api/v1/organizations', { method: 'POST', as: user, body: { name: 'Acme' } });
      const foreign = await api().call('/api/v1/users/me', { as: stranger, headers: { 'x-org-id': org.body.id } });
      expect(foreign.status).toBe(403);
      expect(foreign.text).not.toContain('Acme');
    });

    it('must match the organization a key is bound to', async () => {
      const user = await api().user();
      const create = (name: string) =>
        api().call('/api/v1/organizations', { method: 'POST', as: user, body: { name } });
      const [first, second] = [(await create('First')).body.id, (await create('Second')).body.id];
      const bound = await api().call('/api/v1/keys', { method: 'POST', as: user, body: { org_id: first } });
      expect(bound.status).toBe(201);
      const headers = { authorization: `Bearer ${bound.body.key}` };
      expect((await api().call('/api/v1/users/me', { headers })).body.org_id).toBe(first);
      const other = await api().call('/api/v1/users/me', { headers: { ...headers, 'x-org-id': second } });
      expect(other.status).toBe(403);
      const stranger = await api().user();
      const foreignBinding = await api().call('/api/v1/keys', {
        method: 'POST',
        as: stranger,
        body: { org_id: first },
      });
      expect(foreignBinding.status).toBe(403);
    });
  });

  describe('the one-time sign-in URL', () => {
    it('signs in once with an HttpOnly SameSite=Lax cookie that authenticates, until signed out', async () => {
      const user = await api().user();
      const url = new URL(await signInUrl(api().repositories.sessions, user.id, api().url));
      expect(url.pathname).toBe('/api/v1/auth/sign-in');
      const signIn = () => api().call(`${url.pathname}${url.search}`);
      const first = await signIn();
      expect(first.status).toBe(303);
      expect(first.headers.get('location')).toBe('/');
      const cookie = first.headers.get('set-cookie') ?? '';
      expect(cookie).toMatch(/^bosun_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
      const session = { cookie: cookie.split(';')[0] as string };
      expect((await api().call('/api/v1/users/me', { headers: session })).body.id).toBe(user.id);

      expect((await signIn()).status).toBe(401);

      expect((await api().call('/api/v1/auth/sign-out', { method: 'POST', headers: session })).status).toBe(200);
      expect((await api().call('/api/v1/users/me', { headers: session })).status).toBe(401);
    });

    it('refuses an unknown or expired token, and a missing one with a 422', async () => {
      const user = await api().user();
      const token = await api().repositories.sessions.createSignInToken(user.id, -1000);
      expect((await api().call(`/api/v1/auth/sign-in?token=${token}`)).status).toBe(401);
      expect((await api().call('/api/v1/auth/sign-in?token=nope')).status).toBe(401);
      // A browser opening a link that does not sign in is sent to the sign-in page, which says why (no cookie set).
      const browser = await api().call(`/api/v1/auth/sign-in?token=${token}`, {
        headers: { accept: 'text/html,application/xhtml+xml' },
      });
      expect(browser.status).toBe(303);
      expect(browser.headers.get('location')).toBe('/sign-in?link=invalid');
      expect(browser.headers.get('set-cookie')).toBeNull();
      const missing = await api().call('/api/v1/auth/sign-in');
      expect(missing.status).toBe(422);
      expect(missing.body.detail[0].loc).toEqual(['query', 'token']);
    });

    it('is made for the owner on first start only', async () => {
      const { repositories } = api();
      const owner = await repositories.users.owner();
      const url = await prepareOwnerSignIn(repositories, api().url);
      if (owner) expect(url).toBeUndefined();
      else expect(url).toMatch(/\/api\/v1\/auth\/sign-in\?token=/);
      expect(await prepareOwnerSignIn(repositories, api().url)).toBeUndefined();
    });
  });
});
