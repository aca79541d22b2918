import { describe, expect, it } from 'vitest';
import { KeyRing, newSecretsKey } from '../../src/data/index.ts';
import {
  PENDING_LOGIN_TTL_MS,
  type PendingLogin,
  openPendingLogin,
  pendingLoginCookie,
} from '../../src/identity/oidc/pending-login.ts';
import { sameOriginPath } from '../../src/identity/oidc/return-to.ts';

describe('sameOriginPath', () => {
  it('keeps a path of this server, with its query and fragment', () => {
    expect(sameOriginPath('/conversations/abc?tab=files#top')).toBe('/conversations/abc?tab=files#top');
    expect(sameOriginPath('/a/../b')).toBe('/b');
    expect(sameOriginPath('/%2F%2Fevil.example')).toBe('/%2F%2Fevil.example');
  });

  it('answers / for anything that could leave the server or is not a path', () => {
    for (const value of [
      undefined,
      '',
      'evil.example',
      '//evil.example',
      '///evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      '/\\evil.example',
      '/\\/evil.example',
      '/\t/evil.example',
      '/\r\n/evil.example',
      '/\u0000',
      ' /x',
    ]) {
      expect(sameOriginPath(value), JSON.stringify(value)).toBe('/');
    }
  });
});

describe('the pending login cookie', () => {
  const keyRing = new KeyRing(newSecretsKey());
  const login: PendingLogin = {
    state: 'state-1',
    nonce: 'nonce-1',
    codeVerifier: 'verifier-1',
    returnTo: '/x',
    expiresAt: Date.now() + PENDING_LOGIN_TTL_MS,
  };
  const sealedIn = (cookie: string) => cookie.split(';')[0]?.split('=')[1] as string;

  it('opens with the key ring that sealed it, and tells nothing in clear', () => {
    const cookie = pendingLoginCookie(keyRing, login, true);
    expect(cookie).toMatch(
      /^bosun_oidc_login_[\w-]{22}=v1\.[^;]+; Path=\/api\/v1\/auth; HttpOnly; SameSite=Lax; Max-Age=600; Secure$/,
    );
    for (const part of ['state-1', 'nonce-1', 'verifier-1']) expect(cookie).not.toContain(part);
    expect(openPendingLogin(keyRing, sealedIn(cookie))).toEqual(login);
  });

  it('does not open when expired, damaged, or sealed by another install', () => {
    const value = sealedIn(pendingLoginCookie(keyRing, login, false));
    expect(openPendingLogin(keyRing, value, login.expiresAt)).toBeUndefined();
    expect(openPendingLogin(keyRing, `${value.slice(0, -2)}AA`)).toBeUndefined();
    expect(openPendingLogin(new KeyRing(newSecretsKey()), value)).toBeUndefined();
    expect(openPendingLogin(keyRing, undefined)).toBeUndefined();
    expect(openPendingLogin(keyRing, 'not.sealed')).toBeUndefined();
  });

  it('does not open a value sealed for another purpose with the same key ring', () => {
    const { sealed } = keyRing.seal('custom_secrets\u0000user\u0000name', JSON.stringify(login));
    expect(openPendingLogin(keyRing, sealed)).toBeUndefined();
  });
});
