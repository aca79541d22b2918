import { describe, expect, it } from 'vitest';
import { cookieValue, credentialOf, sessionCookie } from '../../src/identity/credentials.ts';
import { refusalToAdd, refusalToChangeRole, refusalToRemove } from '../../src/organizations/member-rules.ts';

describe('credentialOf', () => {
  it('reads the headers in OpenHands’ order, and the session cookie last', () => {
    expect(credentialOf({ authorization: 'Bearer sk-bosun-a', 'x-session-api-key': 'sk-bosun-b' })).toEqual({
      kind: 'api_key',
      secret: 'sk-bosun-a',
    });
    expect(credentialOf({ 'x-session-api-key': 'sk-bosun-b', 'x-access-token': 'sk-bosun-c' })?.secret).toBe(
      'sk-bosun-b',
    );
    expect(credentialOf({ 'x-access-token': 'sk-bosun-c', cookie: 'bosun_session=s' })?.secret).toBe('sk-bosun-c');
    expect(credentialOf({ cookie: 'theme=dark; bosun_session=tok; x=1' })).toEqual({ kind: 'session', secret: 'tok' });
    expect(credentialOf({})).toBeUndefined();
  });

  it('keeps a malformed Authorization as a (failing) credential instead of falling through', () => {
    expect(credentialOf({ authorization: 'Basic abc', 'x-access-token': 'sk-bosun-c' })).toEqual({
      kind: 'api_key',
      secret: '',
    });
  });

  it('reads and writes the session cookie', () => {
    expect(cookieValue('a=1; bosun_session=xyz', 'bosun_session')).toBe('xyz');
    expect(cookieValue('bosun_session=', 'bosun_session')).toBeUndefined();
    expect(sessionCookie('t', { maxAgeSeconds: 60, secure: true })).toBe(
      'bosun_session=t; Path=/; HttpOnly; SameSite=Lax; Max-Age=60; Secure',
    );
  });
});

describe('member rules', () => {
  it('let owners and admins change members, and only owners touch ownership', () => {
    expect(refusalToAdd('owner', 'owner')).toBeUndefined();
    expect(refusalToAdd('admin', 'member')).toBeUndefined();
    expect(refusalToAdd('admin', 'owner')).toBeDefined();
    expect(refusalToAdd('member', 'member')).toBeDefined();
    expect(refusalToChangeRole('admin', 'member', 'admin')).toBeUndefined();
    expect(refusalToChangeRole('admin', 'owner', 'admin')).toBeDefined();
    expect(refusalToChangeRole('owner', 'owner', 'admin')).toBeUndefined();
    expect(refusalToRemove('member', 'member', true)).toBeUndefined();
    expect(refusalToRemove('member', 'member', false)).toBeDefined();
    expect(refusalToRemove('admin', 'owner', false)).toBeDefined();
    expect(refusalToRemove('owner', 'owner', false)).toBeUndefined();
  });
});
