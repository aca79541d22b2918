import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LicenseTrust, type RunningAppServer, appServerConfig, startAppServer } from '../src/index.ts';
import { call } from './support/app.ts';
import { daysFromNow, payload, signLicense, testIssuer } from './support/license.ts';
import { until } from './support/until.ts';

/**
 * The license a server is started with, verified offline against an issuer key made here: what the log says at
 * start and what /server_info reports. No license, or one that does not verify, still starts the server.
 */

const issuer = testIssuer();
const stranger = testIssuer();
let root: string;
const running: RunningAppServer[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'bosun-license-'));
  await chmod(root, 0o711);
});
afterAll(async () => {
  await Promise.all(running.map((server) => server.close()));
  await rm(root, { recursive: true, force: true });
});

interface LogLine {
  level: number;
  msg: string;
  license?: Record<string, unknown>;
}

/**
 * A server on its own SQLite data directory, given `license` (none: no license), and its log as it is written; it
 * trusts the test issuer unless `trust` is null (the issuer this build trusts).
 */
async function start(license: string | undefined, trust: LicenseTrust | null = issuer.trust) {
  const lines: string[] = [];
  const server = await startAppServer(
    appServerConfig({
      port: 0,
      data_dir: await mkdtemp(join(root, 'data-')),
      log_level: 'info',
      log_format: 'json',
      ...(license !== undefined ? { license } : {}),
    }),
    { logStream: { write: (line: string) => lines.push(line) }, ...(trust ? { licenseTrust: trust } : {}) },
  );
  running.push(server);
  const log = () => lines.map((line) => JSON.parse(line) as LogLine).filter((line) => line.license !== undefined);
  const info = async () => (await call(server.url, '/server_info')).body as { license: Record<string, unknown> };
  return { server, lines, log, info };
}

const ERROR = 50;
const WARN = 40;
const INFO = 30;

describe.concurrent('the license at start', () => {
  it('none: community mode, said once in the log, status none', async () => {
    const { log, info } = await start(undefined);
    expect(log()).toEqual([expect.objectContaining({ level: INFO, msg: 'No license given: community mode' })]);
    expect((await info()).license).toEqual({ status: 'none' });
  });

  it('valid: its seats, dates and features are reported, never its id nor the licensee', async () => {
    const body = payload(issuer);
    const { log, info, lines } = await start(signLicense(body, issuer.privateKey));
    expect(log()).toEqual([
      expect.objectContaining({
        level: INFO,
        msg: `License valid: ops@example.com, 10 seats, until ${body.expires_at}, features: sso, audit-log`,
      }),
    ]);
    const { license } = await info();
    expect(license).toEqual({
      status: 'valid',
      issuer: 'Test Issuer',
      seats: 10,
      seats_used: 1, // the owner, made at the first start
      not_before: body.not_before,
      expires_at: body.expires_at,
      features: ['sso', 'audit-log'],
    });
    expect(JSON.stringify(license)).not.toContain('ops@example.com');
    // The license id is the chart registry's password: neither in the log nor in the status.
    expect(lines.join('')).not.toContain(body.license_id);
  });

  const refused: [string, () => string, LicenseTrust | undefined, string, string][] = [
    [
      'expired',
      () => signLicense(payload(issuer, { expires_at: '2026-01-01T00:00:00Z' }), issuer.privateKey),
      undefined,
      'expired',
      'expired at 2026-01-01T00:00:00Z',
    ],
    [
      'not valid yet',
      () => signLicense(payload(issuer, { not_before: daysFromNow(3) }), issuer.privateKey),
      undefined,
      'invalid',
      'not valid before ',
    ],
    [
      'signed with another key',
      () => signLicense(payload(issuer), stranger.privateKey),
      undefined,
      'invalid',
      'the signature does not verify with the public key of Test Issuer',
    ],
    [
      'altered after signing',
      () => {
        const [header, , signature] = signLicense(payload(issuer), issuer.privateKey).split('.');
        const more = Buffer.from(JSON.stringify(payload(issuer, { seats: 1000 }))).toString('base64url');
        return `${header}.${more}.${signature}`;
      },
      undefined,
      'invalid',
      'the signature does not verify',
    ],
    ['not a license at all', () => 'hello\n', undefined, 'invalid', 'malformed: the file is not a signed license'],
    [
      'signed with another algorithm',
      () => signLicense(payload(issuer), issuer.privateKey, { alg: 'none' }),
      undefined,
      'invalid',
      'malformed: it is signed with "none", not EdDSA (Ed25519)',
    ],
    [
      'signed, but a field is missing',
      () => {
        const { seats: _seats, ...rest } = payload(issuer);
        return signLicense(rest, issuer.privateKey);
      },
      undefined,
      'invalid',
      'malformed payload: seats',
    ],
  ];

  it.each(refused)(
    '%s: an error line says why, the server runs unlicensed',
    async (_name, file, trust, status, why) => {
      const { server, log, info } = await start(file(), trust);
      const [line] = log();
      expect(line).toMatchObject({ level: ERROR, license: { status } });
      expect(line?.msg).toMatch(new RegExp(`^License ${status}: .*; running unlicensed \\(community mode\\)$`));
      expect(line?.msg).toContain(why);
      const { license } = await info();
      expect(license).toMatchObject({ status });
      expect(license.reason).toContain(why);
      // Ready: a machine running two suites at once can hold one probe past its 2 s, so the state is waited for.
      await until(
        () => call(server.url, '/ready'),
        (ready) => ready.status === 200,
        'the server ready',
      );
    },
  );

  it('from another issuer, signed with a trusted key: refused naming both issuers', async () => {
    const other = { ...payload(issuer), issuer: 'Someone Else' };
    const { log, info } = await start(signLicense(other, issuer.privateKey));
    expect(log()[0]?.msg).toContain('issued by "Someone Else", not by "Test Issuer"');
    expect((await info()).license).toEqual({
      status: 'invalid',
      reason: 'issued by "Someone Else", not by "Test Issuer"',
    });
  });

  it('over its seats: a warning in the log and the status, nobody refused', async () => {
    const { server, log, info } = await start(signLicense(payload(issuer, { seats: 2 }), issuer.privateKey));
    expect((await info()).license).toMatchObject({ status: 'valid', seats: 2, seats_used: 1 });
    expect((await info()).license.warning).toBeUndefined();
    const users = server.server.context.services?.repositories.users;
    await users?.create({ email: 'a@example.com' });
    await users?.create({ email: 'b@example.com' });
    const { license } = await info();
    expect(license).toMatchObject({
      status: 'valid',
      seats: 2,
      seats_used: 3,
      warning: '3 users for 2 seats (nobody is refused: the license needs more seats)',
    });
    await info();
    const warnings = log().filter((line) => line.level === WARN);
    expect(warnings).toEqual([
      expect.objectContaining({
        msg: 'License seats exceeded: 3 users for 2 seats (nobody is refused: the license needs more seats)',
      }),
    ]);
  });
});

// Alone, after the others: its license lasts 5 s from signing, the start must fit in them.
describe('a license expiring while the server runs', () => {
  it('the status turns expired and the log says so once', async () => {
    const body = payload(issuer, { expires_at: new Date(Date.now() + 5000).toISOString() });
    const { log, info } = await start(signLicense(body, issuer.privateKey));
    expect(log()[0]).toMatchObject({ level: INFO, license: { status: 'valid' } });
    const { license } = await until(
      info,
      (answer) => answer.license.status !== 'valid',
      'the license to expire',
      10_000,
    );
    expect(license).toMatchObject({ status: 'expired', reason: `expired at ${body.expires_at}` });
    await info();
    expect(log().filter((line) => line.level === ERROR)).toEqual([
      expect.objectContaining({
        msg: `License expired: expired at ${body.expires_at}; running unlicensed (community mode)`,
      }),
    ]);
  });
});

describe('the issuer this build trusts', () => {
  it('is checked when no test key is given: a license signed by a test key is not accepted', async () => {
    const { info } = await start(signLicense(payload(issuer, { issuer: 'Bosun' }), issuer.privateKey), null);
    const { license } = await info();
    expect(license.status).toBe('invalid');
  });
});
