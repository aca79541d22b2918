import { expect, it } from 'vitest';
import { lifetimeOf, tokenAnswerOf, tokenErrorOf } from '../../src/identity/oidc/token-answer.ts';

it('reads a token response’s tokens and lifetimes, JSON or form-encoded, and nothing of the wrong shape', () => {
  const json = '{"access_token":"glpat-1","refresh_token":"r-1","expires_in":7200,"token_type":"Bearer"}';
  expect(tokenAnswerOf(json)).toEqual({ accessToken: 'glpat-1', refreshToken: 'r-1', expiresIn: 7200 });
  const form = 'access_token=ghu_2&expires_in=28800&refresh_token=ghr_2&refresh_token_expires_in=15811200&scope=';
  const github = tokenAnswerOf(form);
  expect(github).toEqual({ accessToken: 'ghu_2', refreshToken: 'ghr_2', expiresIn: 28800, refreshExpiresIn: 15811200 });
  expect(tokenAnswerOf('access_token=gho_3&scope=repo')).toEqual({ accessToken: 'gho_3' });
  for (const junk of [
    '{"access_token":"a","expires_in":-5,"refresh_token":"has space"}',
    'access_token=a&expires_in=1e9',
  ]) {
    expect(tokenAnswerOf(junk)).toEqual({ accessToken: 'a' });
  }
  expect(tokenAnswerOf('{"error":"bad_refresh_token"}')).toBeUndefined();
  expect(tokenErrorOf('{"error":"bad_refresh_token","error_description":"x"}')).toBe('bad_refresh_token');
  expect(tokenErrorOf('error=invalid_grant')).toBe('invalid_grant');
  expect(tokenErrorOf('{"access_token":"a"}')).toBeUndefined();
  const now = Date.parse('2026-01-01T00:00:00Z');
  expect(lifetimeOf(github ?? { accessToken: '' }, now)).toEqual({
    expiresAt: '2026-01-01T08:00:00.000Z',
    refreshToken: 'ghr_2',
    refreshExpiresAt: '2026-07-03T00:00:00.000Z',
  });
  expect(lifetimeOf({ accessToken: 'a' }, now)).toEqual({
    expiresAt: null,
    refreshToken: null,
    refreshExpiresAt: null,
  });
});
