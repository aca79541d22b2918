import { describe, expect, it } from 'vitest';
import { candidatesOf, ownerOf, ownersOf } from '../../src/skill-repositories/candidates.ts';

describe('whose skills repositories a start looks for', () => {
  it("looks for the selected repository's organization, then the user's own account", () => {
    expect(ownersOf('github', 'acme/app', 'alice')).toEqual([
      { provider: 'github', owner: 'acme', scope: 'organization' },
      { provider: 'github', owner: 'alice', scope: 'user' },
    ]);
  });

  it("takes a repository of the user's own (any case) as theirs only, never as an organization's", () => {
    expect(ownersOf('github', 'Alice/dotfiles', 'alice')).toEqual([
      { provider: 'github', owner: 'alice', scope: 'user' },
    ]);
  });

  it('without a login (no token) looks for the organization only; without a repository, the user only', () => {
    expect(ownersOf('github', 'acme/app', null)).toEqual([
      { provider: 'github', owner: 'acme', scope: 'organization' },
    ]);
    expect(ownersOf('gitlab', null, 'alice')).toEqual([{ provider: 'gitlab', owner: 'alice', scope: 'user' }]);
    expect(ownersOf('github', null, null)).toEqual([]);
  });

  it("names a GitLab subgroup by its full path, and a name that is no owner's repository by none", () => {
    expect(ownerOf('group/sub/app')).toBe('group/sub');
    expect(ownerOf('app')).toBeNull();
  });

  it('looks for .agents then the legacy .bosun on GitHub, and bosun-config alone where names cannot begin with a period', () => {
    const names = (provider: 'github' | 'gitlab' | 'bitbucket') =>
      candidatesOf({ provider, owner: 'acme', scope: 'organization' }).map((c) => [c.source, c.legacy]);
    expect(names('github')).toEqual([
      ['github:acme/.agents', false],
      ['github:acme/.bosun', true],
    ]);
    expect(names('gitlab')).toEqual([['gitlab:acme/bosun-config', false]]);
    expect(names('bitbucket')).toEqual([['bitbucket:acme/bosun-config', false]]);
  });
});
