import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../../cli/src/config/settings.ts';
import { AppServerConfig, appServerConfig } from '../../src/config.ts';
import { gitProviderOfAlias } from '../../src/config/sign-in-git-providers.ts';
import { accessTokenIn } from '../../src/identity/oidc/broker-token.ts';
import { appServerConfigProblems } from '../../src/start/config-problems.ts';

const load = (env: Record<string, string>) => loadSettings(AppServerConfig, { flags: {}, env });
const issuer = { oidc_issuer_url: 'https://auth.example.com/realms/bosun', oidc_client_id: 'bosun' };

describe('oidc_git_providers: the Git provider of each identity provider', () => {
  it('maps an alias to a provider type and host, by name without an entry, to none when said so', () => {
    const entries = ['corp=gitlab@gitlab.example.com', 'bbdc=bitbucket_data_center@git.example.com:7990', 'gh=none'];
    expect(gitProviderOfAlias('corp', entries)).toEqual({ provider: 'gitlab', host: 'gitlab.example.com' });
    expect(gitProviderOfAlias('bbdc', entries)).toEqual({
      provider: 'bitbucket_data_center',
      host: 'git.example.com:7990',
    });
    expect(gitProviderOfAlias('github', entries)).toEqual({ provider: 'github', host: null });
    expect(gitProviderOfAlias('gh', entries)).toBeUndefined();
    expect(gitProviderOfAlias('github', ['github=none'])).toBeUndefined();
    expect(gitProviderOfAlias('google', entries)).toBeUndefined();
    expect(gitProviderOfAlias('enterprise_sso', [])).toBeUndefined();
  });

  it('reads the setting from a variable, and refuses a bad value at start naming the key', async () => {
    const loaded = await load({ BOSUN_OIDC_GIT_PROVIDERS: 'corp=gitlab@https://gitlab.example.com,google=none' });
    expect(loaded.values.oidc_git_providers).toEqual(['corp=gitlab@https://gitlab.example.com', 'google=none']);
    for (const bad of ['corp=gitea', 'corp', '=github', 'corp=none@host', 'corp=github@', 'a b=github']) {
      await expect(load({ BOSUN_OIDC_GIT_PROVIDERS: bad }), bad).rejects.toThrow(
        /BOSUN_OIDC_GIT_PROVIDERS: must be a list .*alias=provider_type/,
      );
    }
  });

  it('says which entries do not fit oidc_providers, naming the key', () => {
    const problems = (oidc_providers: string[], oidc_git_providers: string[]) =>
      appServerConfigProblems(appServerConfig({ ...issuer, oidc_providers, oidc_git_providers }));
    expect(problems(['github', 'corp'], ['corp=gitlab@gitlab.example.com'])).toEqual([]);
    expect(problems(['github'], ['corp=gitlab'])).toEqual(['oidc_git_providers: corp is not one of oidc_providers']);
    expect(problems(['corp'], ['corp=gitlab', 'corp=github'])).toEqual([
      'oidc_git_providers: corp is given more than once',
    ]);
    expect(problems(['bitbucket_data_center'], [])).toEqual([
      'oidc_git_providers: bitbucket_data_center needs its host (bitbucket_data_center=bitbucket_data_center@<host>, or =none)',
    ]);
    expect(problems(['bitbucket_data_center'], ['bitbucket_data_center=none'])).toEqual([]);
  });
});

describe("the identity provider's token response", () => {
  it('gives the access_token of a JSON or a form-encoded answer, nothing of anything else', () => {
    expect(accessTokenIn('{"access_token":"glpat-1","token_type":"Bearer"}')).toBe('glpat-1');
    expect(accessTokenIn('access_token=gho_2&scope=repo&token_type=bearer')).toBe('gho_2');
    for (const junk of [undefined, '', '{', '{"token":"x"}', '{"access_token":7}', 'error=bad_verification_code']) {
      expect(accessTokenIn(junk), String(junk)).toBeUndefined();
    }
    expect(accessTokenIn('access_token=with%20space')).toBeUndefined();
    expect(accessTokenIn(`access_token=${'x'.repeat(5000)}`)).toBeUndefined();
  });
});
