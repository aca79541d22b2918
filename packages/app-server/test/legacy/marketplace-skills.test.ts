import { expect, it } from 'vitest';
import { TestRepository } from '../../../sources/test/git/support.ts';
import { describeApi } from '../api/harness.ts';
import { MARKET } from '../api/marketplace-org.ts';
import { gitRemotes } from '../support/git-remotes.ts';

const { options } = gitRemotes(
  'bosun-marketplace-skills-',
  async (dir) => {
    await (await TestRepository.create(dir, 'acme/market')).commit(MARKET);
    await (await TestRepository.create(dir, 'acme/empty')).commit({ 'README.md': '# nothing here\n' });
  },
  { config: { git_allow_private_hosts: true } },
);

/** OpenHands' Skills page previews the marketplaces it is about to save: an array in, its own shape out. */
describeApi(
  'POST /api/v1/skills/marketplace-skills with OpenHands’ array of registrations',
  (api) => {
    it('answers skills, plugins, skills by marketplace and every error, one failing marketplace hiding no other', async () => {
      const user = await api().user();
      const answer = await api().call('/api/v1/skills/marketplace-skills', {
        method: 'POST',
        as: user,
        body: [
          { name: 'tools', source: 'github:acme/market', ref: null, repo_path: null, auto_load: true },
          { source: 'github:acme/empty' },
          { name: 'gone', source: 'github:acme/market', ref: 'no-such-branch' },
        ],
      });
      expect(answer.status, answer.text).toBe(200);
      const tidy = { name: 'formatter:tidy', plugin: 'formatter', marketplace: 'tools' };
      expect(answer.body).toEqual({
        skills: [tidy],
        plugins: [{ name: 'formatter', description: 'Formats code', source: expect.any(String), marketplace: 'tools' }],
        marketplace_skills: { tools: [tidy] },
        errors: [
          expect.stringMatching(/^empty: No marketplace in github:acme\/empty/),
          expect.stringMatching(/^gone: .*no-such-branch/),
        ],
      });
      expect((await api().call('/api/v1/marketplaces', { as: user })).body.items).toEqual([]);
    });

    it('still takes one preview request as Bosun’s, and checks each registration of an array', async () => {
      const user = await api().user();
      const one = await api().call('/api/v1/skills/marketplace-skills', {
        method: 'POST',
        as: user,
        body: { source: 'github:acme/market' },
      });
      expect(one.status, one.text).toBe(200);
      expect(one.body.marketplace).toMatchObject({ name: 'acme-tools' });
      const unsafe = await api().call('/api/v1/skills/marketplace-skills', {
        method: 'POST',
        as: user,
        body: [{ name: 'up', source: 'github:acme/market', repo_path: '../up' }],
      });
      expect(unsafe.status, unsafe.text).toBe(200);
      expect(unsafe.body.errors).toEqual([expect.stringMatching(/^up: .*\.\./)]);
      const bad = await api().call('/api/v1/skills/marketplace-skills', {
        method: 'POST',
        as: user,
        body: [{ ref: 'x' }],
      });
      expect(bad.status).toBe(422);
      expect(JSON.stringify(bad.body.detail)).toContain('source');
      expect((await api().call('/api/v1/skills/marketplace-skills', { method: 'POST', body: [] })).status).toBe(401);
    });
  },
  options,
);
