import { join } from 'node:path';
import { SkillSet, createInvokeSkillTool, loadProjectSkills, renderSkillContent } from '@bosun/agent';
import { describe, expect, it } from 'vitest';
import { scratch, skillMd, validSkill, writeTree } from './support.ts';

/** A workspace with every kind of skill, loaded. */
async function workspaceSkills() {
  const root = await scratch();
  await writeTree(root, {
    'AGENTS.md': 'Always run the tests.',
    '.agents/skills/pdf-tools/SKILL.md': validSkill('pdf-tools', 'Extract text from PDF files & forms <fast>.'),
    '.agents/skills/pdf-tools/scripts/extract.py': 'print(1)',
    '.agents/skills/pdf-tools/references/FORMS.md': '# Forms',
    '.agents/skills/kubernetes/SKILL.md': skillMd(
      { name: 'kubernetes', description: 'Work with clusters.', triggers: '[kubectl, Helm chart]' },
      'Use kubectl carefully.',
    ),
    '.agents/skills/release/SKILL.md': skillMd(
      { name: 'release', description: 'Cut a release.', 'disable-model-invocation': 'true' },
      'Tag, build, publish.',
    ),
    '.agents/skills/style.md': 'Two spaces, no tabs.',
    '.agents/skills/deploy.md': '---\ntriggers: [deploy]\n---\nDeploy with make deploy.',
  });
  const { skills } = await loadProjectSkills(root);
  return { root, set: new SkillSet(skills) };
}

describe('SkillSet', () => {
  it('puts instructions and legacy skills without trigger in full, and the others in the catalog', async () => {
    const { root, set } = await workspaceSkills();
    expect(set.alwaysOn().map((s) => s.name)).toEqual(['agents', 'style']);
    expect(set.invocable().map((s) => s.name)).toEqual(['kubernetes', 'pdf-tools', 'deploy']);
    const context = set.systemContext();
    expect(context).toContain(`[AGENTS.md: ${join(root, 'AGENTS.md')}]\nAlways run the tests.`);
    expect(context).toContain('[skill style: ');
    expect(context).toContain('Two spaces, no tabs.');
    expect(context).toContain(
      '  <skill>\n    <name>pdf-tools</name>\n    <description>Extract text from PDF files &amp; forms &lt;fast&gt;.</description>\n  </skill>',
    );
    expect(context).toContain('<description>Deploy with make deploy.</description>');
    expect(context).not.toContain('release');
    expect(context).not.toContain('Use kubectl carefully.');
  });

  it('has no system context and no tool without skills', () => {
    const set = new SkillSet([]);
    expect(set.systemContext()).toBe('');
    expect(set.invocable()).toEqual([]);
  });

  it('cuts a catalog description at 1024 characters and says how to read the rest', async () => {
    const root = await scratch();
    await writeTree(root, { '.agents/skills/long/SKILL.md': validSkill('long', 'd'.repeat(1100)) });
    const set = new SkillSet((await loadProjectSkills(root)).skills);
    expect(set.systemContext()).toContain(
      `${'d'.repeat(1024)}… [76 characters truncated. Call invoke_skill(name="long") to load the full skill]`,
    );
  });

  it('triggers on a keyword (case-insensitive) or /<name>, once per conversation', async () => {
    const { set } = await workspaceSkills();
    const first = set.triggered('Please update the helm CHART and deploy it');
    expect(first.names).toEqual(['kubernetes', 'deploy']);
    expect(first.content[0]?.text).toMatch(
      /^<EXTRA_INFO>\nThe following information has been included based on a keyword match for "Helm chart"\./,
    );
    expect(first.content[0]?.text).toContain('<skill_content name="kubernetes">\nUse kubectl carefully.');
    expect(set.triggered('deploy again', ['kubernetes', 'deploy']).names).toEqual([]);
    expect(set.triggered('run /release now').names).toEqual(['release']);
    expect(set.triggered('see /usr/bin/release-notes or a/release').names).toEqual([]);
    expect(set.triggered('Always run the tests').names).toEqual([]);
  });
});

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
