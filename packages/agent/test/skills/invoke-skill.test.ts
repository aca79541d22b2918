import { join } from 'node:path';
import { createInvokeSkillTool } from '@bosun/agent';
import { type GitCache, SkillSet, fetchMarketplacePlugins, renderSkillContent, withPluginSkills } from '@bosun/sources';
import { describe, expect, it } from 'vitest';
import { TestRepository, scratchWithCache } from '../../../sources/test/git/support.ts';
import { CHANNELS_MARKETPLACE } from '../../../sources/test/marketplaces/fixtures.ts';
import { workspaceSkills } from '../../../sources/test/skills/support.ts';

describe('invoke_skill', () => {
  it('is an MCPToolDefinition whose name argument lists the invocable skills', async () => {
    const { set } = await workspaceSkills();
    const tool = createInvokeSkillTool(set);
    expect(tool).toMatchObject({ name: 'invoke_skill', actionKind: 'MCPToolAction', readOnly: true });
    expect(tool.definition).toMatchObject({
      kind: 'MCPToolDefinition',
      title: 'invoke_skill',
      action_type: 'MCPToolAction',
      observation_type: 'MCPToolObservation',
      mcp_tool: { name: 'invoke_skill' },
    });
    expect(tool.parameters).toMatchObject({
      properties: { name: { type: 'string', enum: ['kubernetes', 'pdf-tools', 'deploy'] } },
      required: ['name'],
    });
  });

  it("returns the skill's content, its directory and its files listed (not read)", async () => {
    const { root, set } = await workspaceSkills();
    const tool = createInvokeSkillTool(set);
    const context = { workspace: root, stateDir: root, signal: new AbortController().signal, mask: (t: string) => t };
    const result = await tool.execute({ kind: 'MCPToolAction', data: { name: 'pdf-tools' } }, context);
    const dir = join(root, '.agents/skills/pdf-tools');
    expect(result).toEqual({
      kind: 'MCPToolObservation',
      tool_name: 'invoke_skill',
      is_error: false,
      content: [
        {
          type: 'text',
          cache_prompt: false,
          text: [
            '<skill_content name="pdf-tools">',
            '# pdf-tools\n\nInstructions of pdf-tools.',
            '',
            `Skill directory: ${dir}`,
            'Relative paths in this skill are relative to the skill directory.',
            '',
            '<skill_resources>',
            '  <file>scripts/extract.py</file>',
            '  <file>references/FORMS.md</file>',
            '</skill_resources>',
            '</skill_content>',
          ].join('\n'),
        },
      ],
    });
    expect(renderSkillContent(set.get('deploy') as never)).toContain(
      `Skill file: ${join(root, '.agents/skills/deploy.md')}`,
    );
  });

  it('answers an unknown (or not invocable) name with an error listing the skills', async () => {
    const { root, set } = await workspaceSkills();
    const tool = createInvokeSkillTool(set);
    const context = { workspace: root, stateDir: root, signal: new AbortController().signal, mask: (t: string) => t };
    for (const name of ['nope', 'release', 'agents']) {
      const result = await tool.execute({ kind: 'MCPToolAction', data: { name } }, context);
      expect(result.is_error).toBe(true);
      expect(result.content).toEqual([
        expect.objectContaining({
          text: `There is no skill '${name}'. Available skills: kubernetes, pdf-tools, deploy.`,
        }),
      ]);
    }
  });
});

describe('invoke_skill with plugin skills', () => {
  it('reaches a plugin skill by its short name only when it is its alone', async () => {
    const { dir, cache } = await scratchWithCache('bosun-invoke-skill-');
    const set = new SkillSet(await channelSkills(dir, cache));
    const tool = createInvokeSkillTool(set);
    const context = { workspace: '/', stateDir: '/', signal: new AbortController().signal, mask: (t: string) => t };
    const byShort = await tool.execute({ kind: 'MCPToolAction', data: { name: 'contacts' } }, context);
    expect(byShort.is_error).toBe(false);
    expect(JSON.stringify(byShort.content)).toContain('contacts.');
    const shared = await tool.execute({ kind: 'MCPToolAction', data: { name: 'access' } }, context);
    expect(shared.is_error).toBe(true);
    expect(JSON.stringify(shared.content)).toContain('discord:access, discord:configure');
  });
});

/** The skills of the plugins of a marketplace shaped like the official channels (several `access` skills). */
async function channelSkills(dir: string, cache: GitCache) {
  const repo = await TestRepository.create(join(dir, 'remotes'), 'anthropics/claude-plugins-official');
  await repo.commit(CHANNELS_MARKETPLACE);
  const registration = { name: 'official', source: repo.url, ref: 'main', repo_path: null, auto_load: true as const };
  const { fetched } = await fetchMarketplacePlugins(registration, cache, () => undefined);
  const plugins = fetched.flatMap((f) => (f.plugin ? [f.plugin] : []));
  return (await withPluginSkills({ skills: [], problems: [] }, { below: plugins })).skills;
}
