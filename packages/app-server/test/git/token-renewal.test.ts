import { expect, it } from 'vitest';
import type { ProviderTokensRepository } from '../../src/data/repositories/provider-tokens.ts';
import { gitUrlsOf } from '../../src/git/provider-urls.ts';
import { GitTokenRenewal, type RenewalClients } from '../../src/git/token-renewal.ts';
import { hostAccount } from '../api/git-browse-world.ts';
import { type OpenedData, describeEachDatabase } from '../support/databases.ts';
import { gitHostOfFile } from '../support/git-host.ts';
import { until } from '../support/until.ts';

const host = await gitHostOfFile();
const HOUR = 3_600_000;
const at = (ms: number) => new Date(Date.now() + ms).toISOString();

describeEachDatabase('Git provider tokens renewed when they expire', (each) => {
  /** A user whose sign-in stored a token of `provider` (expiring at `expiresAt`) that the stand-in renews. */
  const signedIn = async ({ repositories }: OpenedData, provider = 'github', expiresAt = at(-60_000)) => {
    const { id } = await repositories.users.create({ email: `u-${crypto.randomUUID()}@example.test`, name: 'U' });
    const { accessToken, refreshToken } = host.oauth.issue(hostAccount(`u${host.accounts.size}`, 100));
    const token = { token: accessToken, host: null, source: 'sign-in:x', refreshToken };
    await repositories.providerTokens.setFromSignIn(id, provider, { ...token, expiresAt, refreshExpiresAt: at(HOUR) });
    return { id, accessToken, refreshToken };
  };
  const logs: string[] = [];
  const renewal = (
    store: ProviderTokensRepository,
    clients: RenewalClients = { github: host.oauth.client, gitlab: host.oauth.client, bitbucket: host.oauth.client },
  ) =>
    new GitTokenRenewal({
      store,
      clients,
      urls: gitUrlsOf({ git_github_url: host.url, git_gitlab_url: host.url, git_bitbucket_url: host.url }),
      log: { warn: (details, message) => logs.push(JSON.stringify({ ...details, message })) },
    });
  /** `store` whose first read of a token gives what it held before (another replica read it first). */
  const readEarlier = async (store: ProviderTokensRepository, id: string, provider: string) => {
    const before = await store.stored(id, provider);
    let first = true;
    return Object.assign(Object.create(store), {
      stored: async (userId: string, name: string) => {
        if (!first) return store.stored(userId, name);
        first = false;
        return before;
      },
    }) as ProviderTokensRepository;
  };

  it('renews an expired token once, stores the rotated refresh token sealed, then reads it as is', async () => {
    const data = await each.shared();
    const { providerTokens } = data.repositories;
    for (const provider of ['github', 'gitlab', 'bitbucket']) {
      const { id, accessToken, refreshToken } = await signedIn(data, provider);
      const grants = host.oauth.grants;
      const tokens = renewal(providerTokens);
      const renewed = await tokens.token(id, provider);
      expect(renewed).toEqual({ token: expect.stringMatching(/^ghu_/), host: null });
      expect(renewed?.token).not.toBe(accessToken);
      expect(host.oauth.grants).toBe(grants + 1);
      expect(host.accounts.has(renewed?.token ?? '')).toBe(true);
      const stored = await providerTokens.stored(id, provider);
      expect(stored?.refresh?.token).not.toBe(refreshToken);
      expect(host.oauth.live.has(stored?.refresh?.token ?? '')).toBe(true);
      expect(Date.parse(stored?.expiresAt ?? '')).toBeGreaterThan(Date.now() + HOUR);
      const row = await data.database.db
        .selectFrom('provider_tokens')
        .select(['sealed', 'refresh_sealed'])
        .where('user_id', '=', id)
        .executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain(stored?.refresh?.token);
      expect(JSON.stringify(row)).not.toContain(renewed?.token);
      expect(await tokens.token(id, provider)).toEqual(renewed);
      expect(host.oauth.grants).toBe(grants + 1);
    }
    // Within the margin before it expires, a token is renewed too; well before, never.
    const soon = await signedIn(data, 'github', at(60_000));
    expect((await renewal(providerTokens).token(soon.id, 'github'))?.token).not.toBe(soon.accessToken);
    const later = await signedIn(data, 'github', at(HOUR));
    const grants = host.oauth.grants;
    expect(await renewal(providerTokens).token(later.id, 'github')).toEqual({ token: later.accessToken, host: null });
    expect(host.oauth.grants).toBe(grants);
  });

  it('renews once for reads at the same time: each gets the one new token', async () => {
    const data = await each.shared();
    const { id } = await signedIn(data);
    let release = () => {};
    host.oauth.hold = new Promise((resolve) => {
      release = resolve;
    });
    const grants = host.oauth.grants;
    const tokens = renewal(data.repositories.providerTokens);
    const asked = host.requests.length;
    const reads = Promise.all([1, 2, 3].map(() => tokens.token(id, 'github')));
    try {
      await until(
        async () => host.requests.length - asked,
        (count) => count > 0,
        'the token request',
      );
    } finally {
      release();
      host.oauth.hold = undefined;
    }
    const [first, ...others] = await reads;
    expect(others).toEqual([first, first]);
    expect(host.oauth.grants).toBe(grants + 1);
    expect(host.requests.length - asked).toBe(1);
  });

  it('a renewal whose refresh token another replica used first reads that one’s token, and keeps renewing', async () => {
    const data = await each.shared();
    const { providerTokens } = data.repositories;
    const { id } = await signedIn(data);
    const late = await readEarlier(providerTokens, id, 'github');
    const first = await renewal(providerTokens).token(id, 'github');
    const grants = host.oauth.grants;
    // The late replica sends the used refresh token: refused, and the winner's token is read, not dropped.
    expect(await renewal(late).token(id, 'github')).toEqual(first);
    expect(host.oauth.grants).toBe(grants);
    expect((await providerTokens.stored(id, 'github'))?.refresh).not.toBeNull();
  });

  it('never replaces a token stored by hand meanwhile, nor renews one stored by hand', async () => {
    const data = await each.shared();
    const { providerTokens } = data.repositories;
    const { id } = await signedIn(data);
    const late = await readEarlier(providerTokens, id, 'github');
    await providerTokens.set(id, 'github', { token: 'ghp-by-hand', host: null });
    expect(await renewal(late).token(id, 'github')).toEqual({ token: 'ghp-by-hand', host: null });
    expect(await providerTokens.stored(id, 'github')).toMatchObject({ token: 'ghp-by-hand', source: null });
    expect((await providerTokens.stored(id, 'github'))?.refresh).toBeNull();
    const asked = host.requests.length;
    expect(await renewal(providerTokens).token(id, 'github')).toEqual({ token: 'ghp-by-hand', host: null });
    expect(host.requests.length).toBe(asked);
  });

  it('a refused refresh token is dropped: the expired token reads as none, without asking again', async () => {
    const data = await each.shared();
    const { providerTokens } = data.repositories;
    const { id, refreshToken } = await signedIn(data);
    host.oauth.live.delete(refreshToken);
    const tokens = renewal(providerTokens);
    logs.length = 0;
    expect(await tokens.token(id, 'github')).toBeUndefined();
    expect((await providerTokens.stored(id, 'github'))?.refresh).toBeNull();
    const asked = host.requests.length;
    expect(await tokens.token(id, 'github')).toBeUndefined();
    expect(host.requests.length).toBe(asked);
    expect(logs.join('\n')).toContain('bad_refresh_token');
    expect(logs.join('\n')).not.toContain(refreshToken);
    expect(logs.join('\n')).not.toContain(host.oauth.client.secret);
    // Without the provider app's client, or past its refresh token's expiry, nothing is asked either.
    const unconfigured = await signedIn(data);
    expect(await renewal(providerTokens, {}).token(unconfigured.id, 'github')).toBeUndefined();
    expect(host.requests.length).toBe(asked);
  });

  it('a provider that cannot answer leaves the refresh token for the next read', async () => {
    const data = await each.shared();
    const { providerTokens } = data.repositories;
    const { id, refreshToken } = await signedIn(data);
    host.mode = 'down';
    const tokens = renewal(providerTokens);
    expect(await tokens.token(id, 'github')).toBeUndefined();
    expect((await providerTokens.stored(id, 'github'))?.refresh?.token).toBe(refreshToken);
    host.mode = 'ok';
    expect((await tokens.token(id, 'github'))?.token).toMatch(/^ghu_/);
    // A wrong client secret is the operator's to fix: nothing is dropped either.
    const other = await signedIn(data);
    const wrong = renewal(providerTokens, {
      github: { id: host.oauth.client.id, secret: 'wrong-secret-7q' },
      gitlab: host.oauth.client,
    });
    expect(await wrong.token(other.id, 'github')).toBeUndefined();
    expect((await providerTokens.stored(other.id, 'github'))?.refresh?.token).toBe(other.refreshToken);
    expect(logs.join('\n')).toContain('incorrect_client_credentials');
    expect(logs.join('\n')).not.toContain('wrong-secret-7q');
  });
});
