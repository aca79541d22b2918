import { join } from 'node:path';
import { SkillSet, loadProjectSkills } from '@bosun/sources';
import { describe, expect, it } from 'vitest';
import { scratch, skillMd, validSkill, workspaceSkills, writeTree } from './support.ts';

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
