import { expect, it } from 'vitest';
import { gitHostOfFile } from '../support/git-host.ts';
import { connect, hostAccount } from './git-browse-world.ts';
import { describeApi } from './harness.ts';

const host = await gitHostOfFile();
const TASKS = '/api/v1/git/suggested-tasks/search';

describeApi(
  'suggested tasks of every connected provider, a broken one left out',
  (api) => {
    /** A user connected to GitHub at the stand-in, with `more` tokens beside. */
    const connected = async (who: string, more: object) => {
      const user = await api().user();
      const token = `ghp-${who}-${host.accounts.size}`;
      host.accounts.set(token, hostAccount(who, 5000 + host.accounts.size * 10));
      await connect(api(), user, { github: { token }, ...more });
      return user;
    };
    it('answers the working providers’ tasks when one is misconfigured (a Data Center token without a host)', async () => {
      const user = await connected('alice', { bitbucket_data_center: { token: 'bbdc-secret-token' } });
      const tasks = await api().call(TASKS, { as: user });
      expect(tasks.status, tasks.text).toBe(200);
      expect(tasks.body.items).toEqual([
        expect.objectContaining({ git_provider: 'github', task_type: 'OPEN_PR', repo: 'alice/alpha' }),
        expect.objectContaining({ git_provider: 'github', task_type: 'OPEN_ISSUE', repo: 'acme/alice-tools' }),
      ]);
      const logs = api().logs.join('\n');
      expect(logs).toMatch(/Suggested tasks of bitbucket_data_center left out.*with its host/);
      expect(logs).not.toContain('bbdc-secret-token');
    });

    it('leaves out a provider that refuses its token, and pages what the others gave', async () => {
      const user = await connected('bob', { gitlab: { token: 'glpat-unknown-to-the-host' } });
      const tasks = await api().call(`${TASKS}?limit=1&page_id=1`, { as: user });
      expect(tasks.status, tasks.text).toBe(200);
      expect(tasks.body).toEqual({
        items: [expect.objectContaining({ git_provider: 'github', task_type: 'OPEN_ISSUE' })],
        next_page_id: null,
      });
      expect(api().logs.join('\n')).toMatch(/Suggested tasks of gitlab left out.*refused the stored token/);
    });

    it('answers why when no connected provider can answer (as with one provider)', async () => {
      const user = await api().user();
      await connect(api(), user, { bitbucket_data_center: { token: 'bbdc-alone' } });
      const tasks = await api().call(TASKS, { as: user });
      expect(tasks.status).toBe(400);
      expect(tasks.body).toEqual({ detail: expect.stringMatching(/with its host/) });
      host.mode = 'down';
      const down = await connected('carol', { gitlab: { token: 'glpat-unknown-either' } });
      const failed = await api().call(TASKS, { as: down });
      expect(failed.status).toBe(502);
      expect(failed.body).toEqual({ detail: expect.stringMatching(/^GitHub /) });
    });
  },
  { config: { git_github_url: host.url, git_gitlab_url: host.url } },
);
