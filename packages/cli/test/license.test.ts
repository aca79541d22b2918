import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { payload, signLicense, testIssuer } from '../../app-server/test/support/license.ts';
import { runCli } from './io.ts';

const dir = mkdtempSync(join(tmpdir(), 'bosun-license-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const issuer = testIssuer();
const key = issuer.trust.publicKeys[0] as string;

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe('bosun license inspect', () => {
  it('prints the payload and "valid" (exit 0) for a license signed by the key given', async () => {
    const body = payload(issuer);
    const path = file('valid.jws', signLicense(body, issuer.privateKey));
    const run = await runCli(['license', 'inspect', path, `--public-key=${key}`, '--issuer', 'Test Issuer']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('header: {"alg":"EdDSA","typ":"bosun-license"}');
    expect(run.stdout).toContain(`payload:\n${JSON.stringify(body, null, 2)}\n`);
    expect(run.stdout).toContain('checked against: the key given with --public-key (issuer "Test Issuer")');
    expect(run.stdout).toMatch(/\nstatus: valid\n$/);
  });

  it("takes a key that begins with '-' as --public-key=KEY, and says how when it is given apart", async () => {
    let dashed = testIssuer();
    while (!(dashed.trust.publicKeys[0] as string).startsWith('-')) dashed = testIssuer();
    const dashedKey = dashed.trust.publicKeys[0] as string;
    const path = file('dashed.jws', signLicense(payload(dashed), dashed.privateKey));
    const ok = await runCli(['license', 'inspect', path, `--public-key=${dashedKey}`, '--issuer', 'Test Issuer']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/\nstatus: valid\n$/);
    const apart = await runCli(['license', 'inspect', path, '--public-key', dashedKey, '--issuer', 'Test Issuer']);
    expect(apart.code).toBe(2);
    expect(apart.stderr).toContain('--public-key=');
  });

  it("checks against this build's issuer key unless told: a test key's license is invalid there (exit 1)", async () => {
    const path = file('test-key.jws', signLicense(payload(issuer, { issuer: 'Bosun' }), issuer.privateKey));
    const run = await runCli(['license', 'inspect', path]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('payload (not verified: do not believe it):');
    expect(run.stdout).toContain('checked against: this build\'s issuer key (issuer "Bosun")');
    expect(run.stdout).toMatch(/\nstatus: invalid \(.+\)\n$/);
  });

  it('says why a license is not valid (exit 1): expired, altered, not a license', async () => {
    const expired = file(
      'expired.jws',
      signLicense(payload(issuer, { expires_at: '2026-01-01T00:00:00Z' }), issuer.privateKey),
    );
    const other = testIssuer();
    const foreign = file('foreign.jws', signLicense(payload(issuer), other.privateKey));
    const garbage = file('garbage.txt', 'not a license\n');
    const cases: [string, string][] = [
      [expired, 'status: expired (expired at 2026-01-01T00:00:00Z)'],
      [foreign, 'status: invalid (the signature does not verify with the public key of Test Issuer'],
      [garbage, 'status: invalid (malformed: the file is not a signed license'],
    ];
    for (const [path, said] of cases) {
      const run = await runCli(['license', 'inspect', path, `--public-key=${key}`, '--issuer', 'Test Issuer']);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(said);
    }
  });

  it('refuses bad options and unreadable or empty files (exit 2), naming what is wrong', async () => {
    const empty = file('empty.jws', '\n');
    const cases: [string[], string][] = [
      [['license'], 'an action is needed: inspect'],
      [['license', 'show', 'x'], "unknown action 'show'"],
      [['license', 'inspect'], 'inspect: the license file is needed'],
      [['license', 'inspect', empty, '--public-key', 'abc'], '--public-key: must be a raw Ed25519 public key'],
      [['license', 'inspect', empty, '--issuer', 'X'], '--issuer: only with --public-key'],
      [['license', 'inspect', join(dir, 'missing.jws')], `cannot read ${join(dir, 'missing.jws')} (ENOENT)`],
      [['license', 'inspect', empty], `${empty} is empty`],
    ];
    for (const [args, said] of cases) {
      const run = await runCli(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toContain(said);
    }
  });
});
