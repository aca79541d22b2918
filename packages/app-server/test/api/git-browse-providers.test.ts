import { describe, expect, it } from 'vitest';
import { apiBase, gitProviderApi } from '../../src/git/providers/index.ts';
import { gitHostOfFile } from '../support/git-host.ts';
import { hostAccount } from './git-browse-world.ts';

const host = await gitHostOfFile();
host.accounts.set('ghp-unit', hostAccount('unit', 7));

const PUBLIC = { github: 'https://github.com', gitlab: 'https://gitlab.com', bitbucket: 'https://bitbucket.org' };
const AT_HOST = { ...PUBLIC, github: host.url, gitlab: host.url };
const outside = (address: string) => !/^(127\.|::1$|::ffff:127\.)/.test(address);

describe('the Git providers’ REST APIs', () => {
  it('are found from the token’s host, else from the configured clone URL', () => {
    expect(apiBase('github', null, PUBLIC)).toBe('https://api.github.com');
    expect(apiBase('gitlab', null, PUBLIC)).toBe('https://gitlab.com/api/v4');
    expect(apiBase('github', 'ghe.example.com', PUBLIC)).toBe('https://ghe.example.com/api/v3');
    expect(apiBase('gitlab', 'gitlab.example.com/', PUBLIC)).toBe('https://gitlab.example.com/api/v4');
    expect(apiBase('github', null, { ...PUBLIC, github: 'https://git.corp/ghe/' })).toBe('https://git.corp/ghe/api/v3');
    expect(apiBase('github', 'http://127.0.0.1:8080', PUBLIC)).toBe('http://127.0.0.1:8080/api/v3');
    expect(() => apiBase('github', 'a b', PUBLIC)).toThrow(/not a host/);
    expect(apiBase('bitbucket', null, PUBLIC)).toBe('https://api.bitbucket.org/2.0');
    expect(apiBase('bitbucket', 'bitbucket.org', PUBLIC)).toBe('https://api.bitbucket.org/2.0');
    expect(apiBase('bitbucket', 'https://api.bitbucket.org/', PUBLIC)).toBe('https://api.bitbucket.org/2.0');
    expect(apiBase('bitbucket', '', { ...PUBLIC, bitbucket: 'http://127.0.0.1:8080/bb' })).toBe(
      'http://127.0.0.1:8080/bb/2.0',
    );
    expect(() => apiBase('bitbucket', 'git.corp', PUBLIC)).toThrow(/git\.corp is not Bitbucket Cloud/);
    expect(apiBase('bitbucket_data_center', 'git.corp/bitbucket/', PUBLIC)).toBe(
      'https://git.corp/bitbucket/rest/api/1.0',
    );
    expect(() => apiBase('bitbucket_data_center', null, PUBLIC)).toThrow(/with its host/);
  });

  it('time out a provider that never answers (502 naming it)', async () => {
    host.mode = 'silent';
    const api = gitProviderApi('github', { token: 'ghp-unit', host: null }, { urls: AT_HOST, timeoutMs: 300 });
    await expect(api.account()).rejects.toMatchObject({
      status: 502,
      detail: `GitHub did not answer within 0.3 s (${host.url}/api/v3)`,
    });
  });

  it('are a 502 when nothing listens at the token’s host', async () => {
    const api = gitProviderApi('gitlab', { token: 't', host: 'http://127.0.0.1:9' }, { urls: PUBLIC });
    await expect(api.organizations()).rejects.toMatchObject({ status: 502, detail: /GitLab could not be reached/ });
  });

  it('ask a token’s own host only at admitted addresses; the configured provider’s always', async () => {
    const named = gitProviderApi('github', { token: 'ghp-unit', host: 'localhost' }, { urls: AT_HOST, admit: outside });
    await expect(named.account()).rejects.toMatchObject({ status: 400, detail: /localhost resolves to an internal/ });
    const literal = gitProviderApi('github', { token: 'ghp-unit', host: host.url }, { urls: PUBLIC, admit: outside });
    await expect(literal.account()).rejects.toMatchObject({ status: 400, detail: /internal address \(127\.0\.0\.1\)/ });
    const configured = gitProviderApi('github', { token: 'ghp-unit', host: null }, { urls: AT_HOST, admit: outside });
    expect(await configured.account()).toMatchObject({ login: 'unit', email: 'unit@example.test' });
    const sameHost = gitProviderApi('github', { token: 'ghp-unit', host: host.url }, { urls: AT_HOST, admit: outside });
    expect((await sameHost.organizations()).length).toBe(2);
  });
});
