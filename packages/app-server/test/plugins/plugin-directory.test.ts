import { decodeLaunchLink } from '@bosun/protocol';
import { beforeAll, expect, it } from 'vitest';
import { TestRepository } from '../../../sources/test/git/support.ts';
import { type TestUser, describeApi } from '../api/harness.ts';
import { gitRemotes } from '../support/git-remotes.ts';

/** The instance plugin marketplace: a repository of the configured GitHub, served over HTTP. */
let marketplace: TestRepository;

const manifest = (plugins: object[]) => ({
  '.claude-plugin/marketplace.json': JSON.stringify({ name: 'acme-market', owner: { name: 'Acme' }, plugins }),
});
const WEATHER = { name: 'weather', source: './plugins/weather', description: 'Forecasts.', tags: ['Data'] };
const NOTES = { name: 'notes', source: './plugins/notes', keywords: ['writing'], category: 'productivity' };
const FULL = {
  ...manifest([WEATHER, NOTES, { name: 'gone', source: './plugins/gone' }]),
  'plugins/weather/.claude-plugin/plugin.json': JSON.stringify({
    name: 'weather',
    version: '2.0.0',
    entry_command: 'now',
    parameters: { city: { type: 'string', default: 'Oslo' }, days: { type: 'date' } },
  }),
  'plugins/weather/commands/now.md': 'Say the weather now.\n',
  'plugins/notes/.claude-plugin/plugin.json': JSON.stringify({ name: 'notes', examples: ['/notes:take'] }),
  'plugins/notes/commands/take.md': 'Take a note.\n',
};

const { options } = gitRemotes(
  'bosun-directory-remotes-',
  async (dir) => {
    marketplace = await TestRepository.create(dir, 'acme/market');
  },
  {
    config: {
      git_allow_private_hosts: true,
      plugin_directory_source: 'github:acme/market',
      plugin_directory_refresh: 0,
      plugin_directory_featured: ['notes'],
    },
  },
);

describeApi(
  'the Plugin Directory',
  (api) => {
    let user: TestUser;
    const get = (path: string) => api().call(`/api/v1/plugin-directory${path}`, { as: user });
    const ids = async (path: string) => (await get(path)).body.plugins.map((plugin: { id: string }) => plugin.id);

    beforeAll(async () => {
      user = await api().user();
      // Both database runs share the repository (and the last test moves its branch): each starts from this.
      await marketplace.commit(FULL);
    });

    it('lists the marketplace’s plugins, searched by text, tag and featured', async () => {
      const all = await get('/plugins');
      expect(all.status, all.text).toBe(200);
      expect(all.body.marketplace).toMatchObject({ name: 'acme-market', source: 'github:acme/market', problems: [] });
      expect(all.body.marketplace.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(await ids('/plugins')).toEqual(['weather', 'notes', 'gone']);
      expect(await ids('/plugins?q=FORECAST')).toEqual(['weather']);
      expect(await ids('/plugins?tag=data')).toEqual(['weather']);
      expect(await ids('/plugins?tag=productivity')).toEqual(['notes']);
      expect(await ids('/plugins?featured=true')).toEqual(['notes']);
      expect(await ids('/featured')).toEqual(['notes']);
      expect((await get('/plugins?featured=maybe')).status).toBe(422);
    });

    it('describes a plugin with its launch link and configuration, and says what is wrong', async () => {
      const { body: weather } = await get('/plugins/weather');
      const commit = (await get('/plugins')).body.marketplace.commit;
      expect(weather).toMatchObject({
        name: 'weather',
        version: '2.0.0',
        tags: ['Data'],
        featured: false,
        source: { source: 'github:acme/market', ref: commit, repo_path: 'plugins/weather' },
        problems: [],
      });
      expect(weather.launch_url.startsWith(`${api().url}/launch?plugins=`)).toBe(true);
      expect(decodeLaunchLink(weather.launch_url)).toEqual({
        plugins: [
          { source: 'github:acme/market', ref: commit, repo_path: 'plugins/weather', parameters: { city: 'Oslo' } },
        ],
        message: '/weather:now',
        problems: [],
      });
      expect((await get('/plugins/weather/config')).body).toEqual({
        entry_command: '/weather:now',
        parameters: { city: { type: 'string', description: null, required: false, default: 'Oslo' } },
        examples: [],
        problems: ["parameters.days: type 'date' is not string, number or boolean; ignored"],
      });
      expect((await get('/plugins/notes/config')).body.examples).toEqual([
        { title: '/notes:take', prompt: '/notes:take' },
      ]);
      const gone = (await get('/plugins/gone')).body;
      expect(gone).toMatchObject({ loading: false, launch_url: null });
      expect(gone.problems).toEqual(['error: the plugin directory does not exist']);
      expect(await get('/plugins/nothing')).toMatchObject({ status: 404, body: { detail: 'Plugin not found' } });
      expect((await get('/plugins/nothing/config')).status).toBe(404);
    });

    it('reads the marketplace again when its branch moved; only the instance owner forces a refresh', async () => {
      const before = (await get('/plugins')).body.marketplace.commit;
      const moved = await marketplace.commit(manifest([WEATHER]));
      // Both database runs share the repository: what matters is that the answer follows the branch.
      expect(moved).not.toBe(before);
      const after = await get('/plugins');
      expect(after.body.marketplace.commit).toBe(moved);
      expect(after.body.plugins.map((plugin: { id: string }) => plugin.id)).toEqual(['weather']);
      const refused = await api().call('/api/v1/plugin-directory/refresh', { method: 'POST', as: user });
      expect(refused).toMatchObject({ status: 403, body: { detail: 'Only the instance owner refreshes' } });
    });
  },
  options,
);
