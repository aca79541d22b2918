import { describe, expect, it } from 'vitest';
import { TestRepository } from '../../../sources/test/git/support.ts';
import { HostGuard, isInternalAddress } from '../../src/git/host-guard.ts';
import { MarketplaceGit } from '../../src/marketplaces/git-access.ts';
import { gitRemotes } from '../support/git-remotes.ts';

const providers = (github: string) => ({ github, gitlab: 'https://gitlab.com', bitbucket: 'https://bitbucket.org' });

describe('the host guard of server-side fetches', () => {
  let sha = '';
  const remotes = gitRemotes('bosun-guard-', async (dir) => {
    sha = await (await TestRepository.create(dir, 'acme/market')).commit({ 'README.md': 'hi\n' });
  });

  it('knows internal addresses, IPv4 mapped into IPv6 included', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '::1', 'fd00::1']) {
      expect(isInternalAddress(address), address).toBe(true);
    }
    expect(isInternalAddress('::ffff:127.0.0.1')).toBe(true);
    for (const address of ['140.82.112.3', '2606:4700::1111']) expect(isInternalAddress(address), address).toBe(false);
  });

  it('refuses a configured provider at a loopback address unless private hosts are allowed', async () => {
    const refusing = new MarketplaceGit({
      providers: providers(remotes.server().url),
      allowPrivateHosts: false,
      gitTokens: { list: async () => [], token: async () => undefined },
    });
    const cache = await refusing.cache(`${process.env.TMPDIR ?? '/tmp'}/bosun-guard-unused`);
    const before = remotes.server().requests.length;
    await expect(cache.resolve('github:acme/market', null)).rejects.toThrow(/resolves to an internal address/);
    expect(remotes.server().requests.length).toBe(before);
  });

  it('refuses a name any of whose addresses is internal, and pins Git to the addresses it checked', async () => {
    const port = new URL(remotes.server().url).port;
    const mixed = new HostGuard({
      providers: providers(`http://git.example.test:${port}`),
      allowPrivateHosts: false,
      resolve: async () => ['140.82.112.3', '127.0.0.1'],
    });
    await expect(mixed.gitConfig(`http://git.example.test:${port}/acme/market.git`)).rejects.toThrow(/127\.0\.0\.1/);

    // The name does not resolve anywhere: Git reaches the server only through the pinned address.
    const git = new MarketplaceGit({
      providers: providers(`http://git.example.test:${port}`),
      allowPrivateHosts: true,
      gitTokens: { list: async () => [], token: async () => undefined },
    });
    (git.guard as unknown as { resolve: (host: string) => Promise<string[]> }).resolve = async () => ['127.0.0.1'];
    const cache = await git.cache(`${process.env.TMPDIR ?? '/tmp'}/bosun-guard-unused`);
    expect(await cache.resolve('github:acme/market', 'main')).toBe(sha);
    await expect(cache.resolve('https://evil.example.test/acme/market.git', null)).rejects.toThrow(
      /not a configured Git provider/,
    );
  });
});
