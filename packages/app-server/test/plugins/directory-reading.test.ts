import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { DirectoryPlugin } from '@bosun/protocol';
import { formatProblem, inspectMarketplace, readMarketplace } from '@bosun/sources';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestRepository, serveGitOverHttp, tempDir } from '../../../sources/test/git/support.ts';
import { closedPort } from '../../../sources/test/support/closed-port.ts';
import { MarketplaceGit } from '../../src/marketplaces/git-access.ts';
import { PluginDirectory } from '../../src/plugin-directory/directory.ts';
import { until } from '../support/until.ts';

/** A Git host that answers nothing until released (then 503 to all): a slow host, under the test's control. */
async function heldHost() {
  const held: ServerResponse[] = [];
  let released = false;
  let most = 0;
  const server: Server = createServer((_request: IncomingMessage, response: ServerResponse) => {
    if (released) return void response.writeHead(503).end();
    held.push(response);
    most = Math.max(most, held.filter((r) => !r.writableEnded && !r.destroyed).length);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** The most requests it held at once. */
    most: () => most,
    held: () => held.filter((r) => !r.writableEnded && !r.destroyed).length,
    release() {
      released = true;
      for (const response of held.splice(0)) response.writeHead(503).end();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const LOCAL = Array.from({ length: 40 }, (_, i) => `tool-${i + 1}`);
const SLOW = ['slow-1', 'slow-2', 'slow-3'];

let dir: string;
let cleanup: () => Promise<void>;
let git: Awaited<ReturnType<typeof serveGitOverHttp>>;
let slow: Awaited<ReturnType<typeof heldHost>>;
let down: string;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('bosun-directory-reading-'));
  const repository = await TestRepository.create(join(dir, 'remotes'), 'acme/market');
  git = await serveGitOverHttp(join(dir, 'remotes'));
  slow = await heldHost();
  down = `http://127.0.0.1:${await closedPort()}`;
  const files: Record<string, string> = {};
  for (const name of LOCAL) {
    files[`plugins/${name}/commands/run.md`] = `Run ${name}.\n`;
    // A skill that loads with a warning (a vendor field): the table shows it, so must the directory.
    files[`plugins/${name}/skills/${name}/SKILL.md`] =
      `---\nname: ${name}\ndescription: ${name}.\nmodel: x\n---\nGo.\n`;
  }
  files['.claude-plugin/marketplace.json'] = JSON.stringify({
    name: 'many',
    owner: { name: 'Acme' },
    plugins: [
      { name: 'elsewhere', source: { source: 'url', url: 'https://git.unconfigured.invalid/acme/elsewhere.git' } },
      { name: 'down', source: { source: 'url', url: `${down}/acme/down.git` } },
      ...SLOW.map((name) => ({ name, source: { source: 'url', url: `${slow.url}/acme/${name}.git` } })),
      ...LOCAL.map((name) => ({ name, source: `./plugins/${name}` })),
    ],
  });
  await repository.commit(files);
});

afterAll(async () => {
  slow?.release();
  await slow?.close();
  await git?.close();
  await cleanup?.();
});

function directoryGit() {
  return new MarketplaceGit({
    // The slow host and the closed port are configured providers; `git.unconfigured.invalid` is not.
    providers: { github: git.url, gitlab: slow.url, bitbucket: down },
    allowPrivateHosts: true,
    gitTokens: { list: async () => [], token: async () => undefined },
  });
}

describe('the Plugin Directory of a marketplace with many plugins, some on slow or unreachable hosts', () => {
  it('answers by its deadline with what is ready, the rest loading, and fills them in; as the table says', async () => {
    const marketGit = directoryGit();
    const directory = new PluginDirectory({
      location: { source: 'github:acme/market', ref: null, repo_path: null },
      git: () => marketGit.cache(join(dir, 'cache')),
      refreshMs: 60_000,
      featured: [],
      baseUrl: () => 'http://app.invalid',
      concurrency: 2,
      deadlineMs: 200,
    });
    const ids = ['elsewhere', 'down', ...SLOW, ...LOCAL];
    // The first answer comes by the deadline: the marketplace itself may still be being read.
    const first = await directory.list();
    if (first.plugins.length === 0) {
      expect(first.marketplace?.problems).toEqual(['the marketplace is still being read']);
    }
    // Once it is, every entry is listed, in the marketplace's order: those not read yet are marked.
    const listed = await until(
      () => directory.list(),
      (list) => list.plugins.length > 0,
      'the marketplace read',
    );
    expect(listed.plugins.map((p) => p.id)).toEqual(ids);
    expect(listed.plugins.find((p) => p.id === 'slow-1')).toMatchObject({
      loading: true,
      source: { source: `${slow.url}/acme/slow-1.git`, ref: null, repo_path: null },
      launch_url: null,
      problems: [],
    });

    const byId = (plugins: DirectoryPlugin[]) => new Map(plugins.map((p) => [p.id, p]));
    // Local entries first, then the others in order: two reads at once, so the slow host holds two and the third
    // waits for a free place.
    const ready = await until(
      async () => byId((await directory.list()).plugins),
      (plugins) => [...plugins.values()].filter((p) => p.loading).length === SLOW.length && slow.held() === 2,
      'every plugin but the slow host’s read, and the slow host holding two reads',
    );
    expect(SLOW.map((id) => ready.get(id)?.loading)).toEqual([true, true, true]);
    expect(slow.most()).toBe(2);

    expect(ready.get('tool-1')?.problems).toEqual([
      'warning: skills/tool-1/SKILL.md: model: is not in the Agent Skills specification; Bosun ignores it',
    ]);
    expect(ready.get('tool-1')?.launch_url).toMatch(/^http:\/\/app\.invalid\/launch\?/);
    expect(ready.get('elsewhere')?.problems).toEqual([
      expect.stringMatching(/^error: cannot fetch .*: git\.unconfigured\.invalid is not a configured Git provider/),
    ]);
    expect(ready.get('down')?.problems).toEqual([expect.stringMatching(/^error: cannot fetch /)]);

    // The slow host answers at last (with a failure): its plugins are filled in, no longer loading.
    slow.release();
    const done = await until(
      async () => (await directory.list()).plugins,
      (plugins) => plugins.every((p) => !p.loading),
      'the slow host’s plugins read',
    );
    expect(done.find((p) => p.id === 'slow-2')?.problems).toEqual([expect.stringMatching(/^error: cannot fetch /)]);

    // The problems are the table's (its inspection, through the same guarded Git), entry by entry.
    const cache = await directoryGit().cache(join(dir, 'table-cache'));
    const read = await readMarketplace({ source: 'github:acme/market', ref: null, repo_path: null }, cache);
    const table = await inspectMarketplace(read, cache, () => undefined, { remote: true });
    // Git's messages say how long a refused connection took ("after 0 ms"): each read timed its own.
    const untimed = (problem: string) => problem.replace(/ after \d+ ms/, ' after N ms');
    expect(done.map((p) => [p.id, p.problems.map(untimed)])).toEqual(
      table.entries.map((entry) => [entry.name, entry.problems.map(formatProblem).map(untimed)]),
    );
  });
});
