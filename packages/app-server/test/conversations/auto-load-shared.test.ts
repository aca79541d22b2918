import { beforeAll, expect, it } from 'vitest';
import { TestRepository } from '../../../sources/test/git/support.ts';
import { gitUrlsOf } from '../../src/git/provider-urls.ts';
import { appServerConfig } from '../../src/index.ts';
import { marketplacesOf } from '../../src/marketplaces/index.ts';
import { type TestUser, describeApi } from '../api/harness.ts';
import { gitRemotes } from '../support/git-remotes.ts';

/**
 * Starts at once for one user ask each auto-loaded marketplace's host once (one `git ls-remote` for them all); a
 * user whose credentials differ is never answered with what another's found (a private marketplace).
 */
const TOKEN = 'ghp_private-market-token';
let commit = '';
const remotes = gitRemotes(
  'bosun-auto-load-shared-',
  async (dir) => {
    const repository = await TestRepository.create(dir, 'acme/private-market');
    commit = await repository.commit({ '.plugin/marketplace.json': JSON.stringify({ name: 'private-market' }) });
  },
  { credentials: { username: 'x-access-token', password: TOKEN }, config: { git_allow_private_hosts: true } },
);

describeApi(
  'Auto-Load asked by many starts at once',
  (api) => {
    let owner: TestUser;
    let other: TestUser;
    let anonymous: TestUser;
    /** The app's marketplaces as a server configured with `marketplace_ref_ttl` builds them (its own lookups). */
    const autoLoadWith = (ttl: number) =>
      marketplacesOf(
        api().repositories,
        appServerConfig({ ...remotes.options.config, marketplace_ref_ttl: ttl }),
        gitUrlsOf(remotes.options.config),
      ).autoLoad;
    /** How many times the host was asked for the repository's refs. */
    const refAdvertisements = () =>
      remotes.server().requests.filter((request) => request.path.endsWith('/acme/private-market.git/info/refs')).length;

    beforeAll(async () => {
      [owner, other, anonymous] = await api().users(3);
      const tokens = { [owner.id]: TOKEN, [other.id]: 'ghp_someone-elses-token' };
      for (const user of [owner, other, anonymous]) {
        const token = tokens[user.id];
        if (token) {
          const stored = await api().call('/api/v1/secrets/git-providers', {
            method: 'POST',
            as: user,
            body: { provider_tokens: { github: { token } } },
          });
          expect(stored.status, stored.text).toBe(200);
        }
        const registered = await api().call('/api/v1/marketplaces', {
          method: 'POST',
          as: user,
          body: { source: 'github:acme/private-market', auto_load: true },
        });
        expect(registered.status, registered.text).toBe(201);
      }
    });

    it('asks the host once for starts at once (as often as one start does), each recording the commit', async () => {
      const before = refAdvertisements();
      const alone = await autoLoadWith(0)(owner.id, null);
      expect(alone.loaded).toMatchObject([{ name: 'private-market', resolved_ref: commit, problem: null }]);
      const perStart = refAdvertisements() - before;
      expect(perStart).toBeGreaterThan(0);

      const autoLoad = autoLoadWith(60);
      const atOnce = refAdvertisements();
      const starts = await Promise.all(Array.from({ length: 5 }, () => autoLoad(owner.id, null)));
      for (const start of starts) {
        expect(start.registrations).toEqual([expect.objectContaining({ name: 'private-market', ref: commit })]);
      }
      expect(refAdvertisements() - atOnce).toBe(perStart);
      // Kept: a start just after asks nobody.
      await autoLoad(owner.id, null);
      expect(refAdvertisements() - atOnce).toBe(perStart);
    });

    it('never answers another user with what the owner’s token found: each asks with their own', async () => {
      const autoLoad = autoLoadWith(60);
      const [mine, theirs, nobodys] = await Promise.all([
        autoLoad(owner.id, null),
        autoLoad(other.id, null),
        autoLoad(anonymous.id, null),
      ]);
      expect(mine.loaded).toMatchObject([{ resolved_ref: commit, problem: null }]);
      for (const refused of [theirs, nobodys]) {
        expect(refused.registrations).toEqual([]);
        expect(refused.loaded).toMatchObject([{ name: 'private-market', resolved_ref: null }]);
        expect(refused.problems).toEqual([
          expect.stringMatching(/^marketplace private-market \(personal\): not loaded/),
        ]);
      }
      // With the owner's answer kept, the others still ask the host themselves, and are still refused.
      const before = remotes.server().requests.length;
      const [again, againTheirs] = await Promise.all([autoLoad(owner.id, null), autoLoad(other.id, null)]);
      expect(again.loaded).toMatchObject([{ resolved_ref: commit }]);
      expect(againTheirs.loaded).toMatchObject([{ resolved_ref: null }]);
      const asked = remotes.server().requests.slice(before);
      expect(asked.length).toBeGreaterThan(0);
      expect(asked.every((request) => !request.authorized)).toBe(true);
      expect(JSON.stringify([theirs, nobodys, againTheirs])).not.toContain(TOKEN);
    });
  },
  remotes.options,
);
