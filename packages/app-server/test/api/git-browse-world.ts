import type { HostAccount, HostRepository } from '../support/git-host.ts';
import type { Api, TestUser } from './harness.ts';

const branch = (name: string, at: number) => ({
  name,
  sha: `${at}`.padStart(40, 'a'),
  protected: name === 'main',
  date: `2026-01-0${at}T00:00:00Z`,
});

const repository = (id: number, fullName: string, extra: Partial<HostRepository> = {}): HostRepository => ({
  id,
  fullName,
  private: id % 2 === 0,
  stars: id * 10,
  pushedAt: `2026-02-0${id % 10}T00:00:00Z`,
  defaultBranch: 'main',
  ownerIsOrganization: fullName.startsWith('acme/'),
  branches: ['main', 'feature/login', 'feature/logout', 'fix/typo'].map(branch),
  ...extra,
});

/** An account of the stand-in host: `who`'s three repositories (one in installation 77), orgs, PRs and issues. */
export function hostAccount(who: string, id: number): HostAccount {
  return {
    id,
    login: who,
    name: `${who} Example`,
    email: `${who}@example.test`,
    company: 'Acme',
    repositories: [
      repository(id + 1, `${who}/alpha`),
      repository(id + 2, `${who}/beta`),
      repository(id + 3, `acme/${who}-tools`, { installation: 77 }),
    ],
    installations: [77, 78],
    organizations: ['acme', 'acme-labs'],
    pulls: [{ repo: `${who}/alpha`, number: 5, title: `${who}'s open PR` }],
    issues: [{ repo: `acme/${who}-tools`, number: 9, title: `Issue assigned to ${who}` }],
  };
}

/** Stores `user`'s provider tokens (`/secrets/git-providers`). */
export async function connect(api: Api, user: TestUser, provider_tokens: object): Promise<void> {
  const answer = await api.call('/api/v1/secrets/git-providers', {
    method: 'POST',
    as: user,
    body: { provider_tokens },
  });
  if (answer.status !== 200) throw new Error(`tokens refused (${answer.status}): ${answer.text}`);
}

/** Every browsing route for `provider` (branches of `someone/alpha`), and those that read the first provider. */
export const browseRoutes = (provider: string) => [
  `/api/v1/git/repositories/search?provider=${provider}`,
  `/api/v1/git/branches/search?provider=${provider}&repository=someone/alpha&query=`,
  `/api/v1/git/installations/search?provider=${provider}`,
  '/api/v1/git/suggested-tasks/search',
  '/api/v1/users/git-organizations',
];
