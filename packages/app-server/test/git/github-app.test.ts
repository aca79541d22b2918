import { createHmac, generateKeyPairSync, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { gitHubAppProblems } from '../../src/config/github-app.ts';
import type { MintedToken } from '../../src/git/apps/app-api.ts';
import { appJwt } from '../../src/git/apps/app-jwt.ts';
import { InstallationTokens } from '../../src/git/apps/installation-tokens.ts';
import { signatureMatches } from '../../src/git/apps/webhook-signature.ts';

const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

describe("the GitHub App's JWT", () => {
  it('is RS256, signed with the private key (checked with the public key), issued by the app, dated a minute back, valid nine minutes', () => {
    const now = Date.UTC(2026, 0, 2, 3, 4, 5);
    const jwt = appJwt('424242', privateKey, now);
    const [header, claims, signature] = jwt.split('.') as [string, string, string];
    const json = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    expect(json(header)).toEqual({ alg: 'RS256', typ: 'JWT' });
    expect(json(claims)).toEqual({ iss: '424242', iat: now / 1000 - 60, exp: now / 1000 + 540 });
    const signed = Buffer.from(`${header}.${claims}`);
    expect(verify('sha256', signed, publicKey, Buffer.from(signature, 'base64url'))).toBe(true);
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
    expect(verify('sha256', signed, other, Buffer.from(signature, 'base64url'))).toBe(false);
  });
});

describe("a webhook's signature", () => {
  const body = Buffer.from('{"action":"created"}');
  const hex = createHmac('sha256', 'secret').update(body).digest('hex');

  it('matches the HMAC-SHA256 of the body under the secret only', () => {
    expect(signatureMatches('secret', body, `sha256=${hex}`)).toBe(true);
    expect(signatureMatches('secret', body, `sha256=${hex.toUpperCase()}`)).toBe(true);
    expect(signatureMatches('other', body, `sha256=${hex}`)).toBe(false);
    expect(signatureMatches('secret', Buffer.from('{"action":"deleted"}'), `sha256=${hex}`)).toBe(false);
    for (const header of [undefined, '', hex, `sha1=${hex}`, `sha256=${hex.slice(2)}`, `sha256=${hex}00`]) {
      expect(signatureMatches('secret', body, header)).toBe(false);
    }
  });
});

describe('installation tokens', () => {
  const HOUR = 60 * 60_000;
  const world = (lifetimeMs = HOUR) => {
    const clock = { now: 0 };
    const asked: string[][] = [];
    const tokens = new InstallationTokens({
      now: () => clock.now,
      mint: async (id, repositories): Promise<MintedToken> => {
        asked.push([id, ...repositories]);
        return { token: `token-${asked.length}`, expiresAt: clock.now + lifetimeMs };
      },
    });
    return { clock, asked, tokens };
  };

  it('are kept per installation and repositories until five minutes before they expire', async () => {
    const { clock, asked, tokens } = world();
    expect(await tokens.token('1', ['.agents'])).toEqual({ token: 'token-1', installationId: '1', fresh: true });
    expect(await tokens.token('2', ['.agents'])).toMatchObject({ token: 'token-2', installationId: '2' });
    clock.now = HOUR - 5 * 60_000 - 1;
    expect(await tokens.token('1', ['.agents'])).toEqual({ token: 'token-1', installationId: '1', fresh: false });
    expect(await tokens.token('1', ['.bosun'])).toMatchObject({ token: 'token-3', fresh: true });
    clock.now = HOUR - 5 * 60_000;
    expect(await tokens.token('1', ['.agents'])).toMatchObject({ token: 'token-4', fresh: true });
    expect(asked).toEqual([
      ['1', '.agents'],
      ['2', '.agents'],
      ['1', '.bosun'],
      ['1', '.agents'],
    ]);
  });

  it('are minted at once for callers asking together, and again once for all whose token was refused', async () => {
    const { asked, tokens } = world();
    const [a, b] = await Promise.all([tokens.token('1', ['.agents']), tokens.token('1', ['.agents'])]);
    expect(a?.token).toBe('token-1');
    expect(b?.token).toBe('token-1');
    const cached = await tokens.token('1', ['.agents']);
    const renewed = await Promise.all([tokens.renewed(cached, ['.agents']), tokens.renewed(cached, ['.agents'])]);
    expect(renewed.map(({ token }) => token)).toEqual(['token-2', 'token-2']);
    expect(asked).toHaveLength(2);
  });

  it('are forgotten with their installation, and one lasting less than the margin is never kept', async () => {
    const { asked, tokens } = world(4 * 60_000);
    await tokens.token('1', ['.agents']);
    expect(await tokens.token('1', ['.agents'])).toMatchObject({ token: 'token-2', fresh: true });
    const long = world();
    await long.tokens.token('1', ['.agents']);
    await long.tokens.token('2', ['.agents']);
    long.tokens.forget('1');
    expect(await long.tokens.token('1', ['.agents'])).toMatchObject({ token: 'token-3', fresh: true });
    expect(await long.tokens.token('2', ['.agents'])).toMatchObject({ token: 'token-2', fresh: false });
    expect(asked).toHaveLength(2);
  });
});

describe("the GitHub App's settings", () => {
  it('need its ID (or client ID) beside a private key that is an RSA key, and never show the key', () => {
    expect(gitHubAppProblems({ git_github_app_id: '1', git_github_app_private_key: PEM })).toEqual([]);
    expect(gitHubAppProblems({ git_github_app_client_id: 'Iv1.x', git_github_app_private_key: PEM })).toEqual([]);
    // A key kept on one line with `\n` escapes, as some secret stores keep it.
    const oneLine = PEM.trim().replaceAll('\n', '\\n');
    expect(gitHubAppProblems({ git_github_app_id: '1', git_github_app_private_key: oneLine })).toEqual([]);
    expect(gitHubAppProblems({ git_github_app_id: '1' })).toEqual([
      'git_github_app_private_key: needed when git_github_app_id is set',
    ]);
    expect(gitHubAppProblems({ git_github_app_private_key: PEM })).toEqual([
      'git_github_app_id: needed when git_github_app_private_key is set (or git_github_app_client_id)',
    ]);
    const broken = '-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n';
    expect(gitHubAppProblems({ git_github_app_id: '1', git_github_app_private_key: broken })).toEqual([
      'git_github_app_private_key: not a PEM private key that can be read',
    ]);
    const ed = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(gitHubAppProblems({ git_github_app_id: '1', git_github_app_private_key: ed })).toEqual([
      'git_github_app_private_key: not an RSA key',
    ]);
  });
});
