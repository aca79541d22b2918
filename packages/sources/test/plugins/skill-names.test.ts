import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  type GitCache,
  type LoadedPlugin,
  SkillSet,
  fetchMarketplacePlugins,
  inspectMarketplace,
  loadPlugin,
  pluginSkills,
  readMarketplace,
  withPluginSkills,
} from '@bosun/sources';
import { beforeEach, describe, expect, it } from 'vitest';
import { TestRepository, scratchWithCache } from '../git/support.ts';
import { CHANNELS_MARKETPLACE } from '../marketplaces/fixtures.ts';

let dir: string;
let cache: GitCache;
beforeEach(async () => {
  ({ dir, cache } = await scratchWithCache('bosun-plugin-skill-names-'));
});

async function channels() {
  const repo = await TestRepository.create(join(dir, 'remotes'), 'anthropics/claude-plugins-official');
  await repo.commit(CHANNELS_MARKETPLACE);
  const registration = { name: 'official', source: repo.url, ref: 'main', repo_path: null, auto_load: true as const };
  const { fetched } = await fetchMarketplacePlugins(registration, cache, () => undefined);
  return { registration, plugins: fetched.flatMap((f) => (f.plugin ? [f.plugin] : [])) };
}

async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

const none = { skills: [], problems: [] };

describe('plugins shipping skills of the same name (discord, imessage, telegram: access, configure)', () => {
  it('each keeps its own, named by its plugin, without a problem', async () => {
    const { plugins } = await channels();
    const merged = await withPluginSkills(none, { below: plugins });
    expect(merged.skills.map((s) => s.name)).toEqual([
      'discord:access',
      'discord:configure',
      'discord:servers',
      'imessage:access',
      'imessage:configure',
      'imessage:contacts',
      'telegram:access',
      'telegram:bots',
      'telegram:configure',
    ]);
    expect(merged.problems).toEqual([]);
    expect(merged.skills.find((s) => s.name === 'telegram:access')?.content).toBe('access for telegram.');
  });

  it('are reached by their full name, and by their short name only when it is theirs alone', async () => {
    const { plugins } = await channels();
    const set = new SkillSet((await withPluginSkills(none, { below: plugins })).skills);
    expect(set.triggered('please /telegram:access now').names).toEqual(['telegram:access']);
    expect(set.triggered('please /access now').names).toEqual([]);
    expect(set.triggered('/servers').names).toEqual(['discord:servers']);
    expect(set.triggered('/discord:servers').names).toEqual(['discord:servers']);
    expect(set.get('bots')?.name).toBe('telegram:bots');
    expect(set.get('access')).toBeUndefined();
  });

  it('are turned off one by its full name, or all of a short name by it', async () => {
    const { plugins } = await channels();
    const merged = await withPluginSkills(none, { below: plugins }, ['telegram:access', 'configure']);
    expect(merged.skills.map((s) => s.name)).toEqual([
      'discord:access',
      'discord:servers',
      'imessage:access',
      'imessage:contacts',
      'telegram:bots',
    ]);
    expect(merged.problems.every((p) => p.severity === 'info' && p.message.includes('is disabled'))).toBe(true);
  });

  it('a name still defined twice (the same plugin loaded twice) is a warning naming both', async () => {
    const { plugins } = await channels();
    const discord = plugins[0] as LoadedPlugin;
    const merged = await withPluginSkills(none, { below: [discord], above: [discord] });
    expect(merged.skills).toHaveLength(3);
    const problems = merged.problems.map((p) => [p.severity, p.message]);
    expect(problems).toContainEqual([
      'warning',
      `plugin skill 'discord:access' of discord (${join(discord.root, 'skills/access/SKILL.md')}) is overridden by plugin skill 'discord:access' of discord (${join(discord.root, 'skills/access/SKILL.md')})`,
    ]);
    expect(problems.every(([severity]) => severity === 'warning')).toBe(true);
  });

  it('are listed by inspection under the names the agent uses', async () => {
    const { registration } = await channels();
    const listing = await inspectMarketplace(await readMarketplace(registration, cache), cache, () => undefined);
    expect(listing.entries.map((e) => e.contents?.skills)).toEqual([
      ['discord:access', 'discord:configure', 'discord:servers'],
      ['imessage:access', 'imessage:configure', 'imessage:contacts'],
      ['telegram:access', 'telegram:bots', 'telegram:configure'],
    ]);
  });
});

describe('plugin skills among the conversation skills', () => {
  it('puts marketplace plugins below the other scopes and named plugins above them, commands as keyword skills', async () => {
    const skill = (description: string) => `---\nname: shared\ndescription: ${description}\n---\nBody.\n`;
    await writeTree(join(dir, 'market'), {
      'skills/shared/SKILL.md': skill('from the marketplace'),
      'skills/low/SKILL.md': skill('x').replace('shared', 'low'),
    });
    await writeTree(join(dir, 'named'), {
      'skills/shared/SKILL.md': skill('from the named plugin'),
      'commands/go.md': 'Go.\n',
    });
    // Plugin skills are named by plugin: the same plugin (`kit`) at each level, and a project skill of that name.
    const market = await loadPlugin(join(dir, 'market'), { defaultName: 'kit' });
    const named = await loadPlugin(join(dir, 'named'), { defaultName: 'kit' });
    const own = (await pluginSkills(market)).skills.map((s) => ({
      ...s,
      source: { scope: 'project' as const, origin: 'workspace' },
    }));
    const merged = await withPluginSkills({ skills: own, problems: [] }, { below: [market], above: [named] }, [
      'kit:low',
    ]);
    expect(merged.skills.map((s) => [s.name, s.description, s.source.scope])).toEqual([
      ['kit:shared', 'from the named plugin', 'plugin'],
      ['kit:go', 'Go.', 'plugin'],
    ]);
    expect(merged.skills[1]?.trigger).toEqual({ type: 'keyword', keywords: ['/kit:go'] });
    const onlyBelow = await withPluginSkills({ skills: own, problems: [] }, { below: [market] });
    expect(onlyBelow.skills.find((s) => s.name === 'kit:shared')?.source.scope).toBe('project');
  });
});

describe('a plugin’s entry command, triggered by /<plugin>', () => {
  it('is not triggered by another of its skills or commands (/kit:welcome, /kit:greet), only by /kit itself', async () => {
    await writeTree(join(dir, 'kit'), {
      '.claude-plugin/plugin.json': JSON.stringify({ name: 'kit', entry_command: 'greet' }),
      'commands/greet.md': 'Greet.\n',
      'commands/greeting-card.md': 'A card.\n',
      'skills/welcome/SKILL.md': '---\nname: welcome\ndescription: Welcome someone.\n---\nWelcome.\n',
    });
    const kit = await loadPlugin(join(dir, 'kit'), { defaultName: 'kit' });
    const set = new SkillSet((await withPluginSkills(none, { below: [kit] })).skills);
    expect(set.triggered('/kit:welcome our visitor').names).toEqual(['kit:welcome']);
    expect(set.triggered('/kit:greeting-card please').names).toEqual(['kit:greeting-card']);
    expect(set.triggered('/kit please').names).toEqual(['kit:greet']);
    expect(set.triggered('Run /KIT:GREET, then stop.').names).toEqual(['kit:greet']);
    expect(set.triggered('see docs/kit/readme').names).toEqual([]);
  });
});
