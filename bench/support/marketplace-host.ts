import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestRepository, serveGitOverHttp } from '../../packages/sources/test/git/support.ts';

/** Marketplace repositories `acme/market-<i>` served over Git's smart HTTP on loopback, each request recorded. */
export interface MarketplaceHost {
  /** The app's `git_github_url`. */
  url: string;
  /** `instance_marketplaces` auto-loading every one of them. */
  instanceMarketplaces: string[];
  /** How many times a repository's refs were asked for (one `git ls-remote` each) so far. */
  refLookups(): number;
  close(): Promise<void>;
}

export async function startMarketplaceHost(count: number): Promise<MarketplaceHost> {
  const root = await mkdtemp(join(tmpdir(), 'bosun-bench-marketplaces-'));
  const names = Array.from({ length: count }, (_, index) => `market-${index}`);
  for (const name of names) {
    const repository = await TestRepository.create(root, `acme/${name}`);
    await repository.commit({ '.plugin/marketplace.json': JSON.stringify({ name, owner: { name: 'Acme' } }) });
  }
  const server = await serveGitOverHttp(root);
  return {
    url: server.url,
    instanceMarketplaces: names.map((name) => `github:acme/${name}#${name}###true`),
    refLookups: () => server.requests.filter((request) => request.path.endsWith('/info/refs')).length,
    async close() {
      await server.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
