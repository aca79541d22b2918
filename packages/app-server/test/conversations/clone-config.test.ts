import { describe, expect, it } from 'vitest';
import { cloneSource } from '../../src/git/clone-source.ts';
import { DEFAULT_GIT_URLS } from '../../src/git/provider-urls.ts';
import { basic } from '../support/git-host-clone.ts';

const reach = { urls: DEFAULT_GIT_URLS };
const header = (origin: string, authorization: string) =>
  `[http "${origin}/"]\n\textraHeader = "Authorization: ${authorization}"\n`;
const NO_REDIRECT = '[http]\n\tfollowRedirects = false\n';

describe('cloneSource: where a repository is cloned from, and with what', () => {
  it('clones from the configured URL with each provider’s user name beside the token', async () => {
    expect(await cloneSource('github', 'acme/app', { token: 'ghp_1', host: null }, reach)).toEqual({
      url: 'https://github.com/acme/app.git',
      config: header('https://github.com', basic('x-access-token', 'ghp_1')),
    });
    expect(await cloneSource('gitlab', 'group/sub/app', { token: 'glpat-1', host: '' }, reach)).toEqual({
      url: 'https://gitlab.com/group/sub/app.git',
      config: header('https://gitlab.com', basic('oauth2', 'glpat-1')),
    });
    expect(await cloneSource('bitbucket', 'ws/app', { token: 'bb-access', host: null }, reach)).toEqual({
      url: 'https://bitbucket.org/ws/app.git',
      config: header('https://bitbucket.org', basic('x-token-auth', 'bb-access')),
    });
    expect(
      (await cloneSource('bitbucket', 'ws/app', { token: 'me:app"pass', host: 'bitbucket.org' }, reach)).config,
    ).toBe(header('https://bitbucket.org', basic('me', 'app"pass')));
    // A mirror on disk (as the tests configure) takes no credentials.
    const mirror = { urls: { ...reach.urls, github: 'file:///srv/mirror/' } };
    expect(await cloneSource('github', 'acme/app', { token: 'ghp_1', host: null }, mirror)).toEqual({
      url: 'file:///srv/mirror/acme/app.git',
      config: '',
    });
    expect(await cloneSource('github', 'acme/public', null, reach)).toEqual({
      url: 'https://github.com/acme/public.git',
      config: '',
    });
  });

  it('clones from the token’s own host, never following a redirect; Data Center from /scm/ with a Bearer token', async () => {
    expect(await cloneSource('github', 'acme/app', { token: 'ghe', host: 'ghe.example.com' }, reach)).toEqual({
      url: 'https://ghe.example.com/acme/app.git',
      config: `${header('https://ghe.example.com', basic('x-access-token', 'ghe'))}${NO_REDIRECT}`,
    });
    const dc = { token: 'bbdc-token', host: 'https://git.corp/bitbucket/' };
    expect(await cloneSource('bitbucket_data_center', 'PROJ/repo', dc, reach)).toEqual({
      url: 'https://git.corp/bitbucket/scm/PROJ/repo.git',
      config: `${header('https://git.corp', 'Bearer bbdc-token')}${NO_REDIRECT}`,
    });
    const user = await cloneSource('bitbucket_data_center', 'PROJ/repo', { ...dc, token: 'carol:t' }, reach);
    expect(user.config).toBe(`${header('https://git.corp', basic('carol', 't'))}${NO_REDIRECT}`);
  });

  it('pins a token’s own host to its admitted addresses, and refuses one at an address not admitted', async () => {
    const access = { token: 'ghe', host: 'http://127.0.0.1:8123' };
    const pinned = await cloneSource('github', 'acme/app', access, { ...reach, admit: () => true });
    expect(pinned.config).toContain('\tcurloptResolve = "127.0.0.1:8123:127.0.0.1"\n');
    const refused = cloneSource('github', 'acme/app', access, { ...reach, admit: () => false });
    await expect(refused).rejects.toMatchObject({ status: 400, detail: expect.stringMatching(/internal address/) });
    // The configured provider's host is not guarded (the administrator chose it).
    const configured = { ...reach, urls: { ...reach.urls, github: 'http://127.0.0.1:8123' }, admit: () => false };
    expect((await cloneSource('github', 'acme/app', access, configured)).config).not.toContain('curloptResolve');
  });

  it('refuses what cannot be cloned: a Data Center token without a host, a self-hosted `bitbucket`, others', async () => {
    const fails = (promise: Promise<unknown>, detail: RegExp) =>
      expect(promise).rejects.toMatchObject({ status: 400, detail: expect.stringMatching(detail) });
    await fails(cloneSource('bitbucket_data_center', 'P/r', { token: 't', host: null }, reach), /with its host/);
    await fails(cloneSource('bitbucket', 'w/r', { token: 't', host: 'git.corp' }, reach), /bitbucket_data_center/);
    await fails(cloneSource('forgejo', 'o/r', { token: 't', host: null }, reach), /cannot be cloned yet/);
    await fails(cloneSource('bitbucket_data_center', 'P/r', { token: 'a\nb', host: 'git.corp' }, reach), /control/);
  });
});
