import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SEALED_PREFIX_LENGTH, SecretsKeyError, SecretsKeyring, keyIdOf } from '../src/store/sealed-secrets.ts';
import { loadSecretsKeyring } from '../src/store/secrets-key.ts';

const RECORD = JSON.stringify({ request: { agent: { llm: { api_key: 'sk-unit-secret' } } } });

describe('SecretsKeyring', () => {
  const keyring = new SecretsKeyring(randomBytes(32));

  it('seals with a fresh IV each time and opens what it sealed', () => {
    const a = keyring.sealRecord('c1', RECORD);
    const b = keyring.sealRecord('c1', RECORD);
    expect(a).not.toBe(b);
    expect(a).not.toContain('sk-unit-secret');
    expect(a.startsWith(keyring.prefix)).toBe(true);
    expect(keyring.prefix).toHaveLength(SEALED_PREFIX_LENGTH);
    expect(keyring.openRecord('c1', a)).toBe(RECORD);
    expect(keyring.openRecord('c1', b)).toBe(RECORD);
  });

  it('refuses a record that was changed, moved to another conversation, or sealed with another key', () => {
    const sealed = keyring.sealRecord('c1', RECORD);
    const parts = sealed.split(':');
    const body = Buffer.from(parts[5] as string, 'base64url');
    body[0] = (body[0] as number) ^ 1;
    const tampered = [...parts.slice(0, 5), body.toString('base64url')].join(':');
    expect(() => keyring.openRecord('c1', tampered)).toThrow(/damaged/);
    const truncatedTag = [...parts.slice(0, 4), (parts[4] as string).slice(0, 8), parts[5]].join(':');
    expect(() => keyring.openRecord('c1', truncatedTag)).toThrow(/damaged/);
    expect(() => keyring.openRecord('c2', sealed)).toThrow(/damaged/);
    expect(() => new SecretsKeyring(randomBytes(32)).openRecord('c1', sealed)).toThrow(SecretsKeyError);
  });

  it('opens with a previous key during a rotation, and seals with the current one', () => {
    const old = randomBytes(32);
    const sealedWithOld = new SecretsKeyring(old).sealRecord('c1', RECORD);
    const rotated = new SecretsKeyring(randomBytes(32), [old]);
    expect(rotated.has(keyIdOf(old))).toBe(true);
    expect(rotated.openRecord('c1', sealedWithOld)).toBe(RECORD);
    expect(rotated.sealRecord('c1', RECORD).startsWith(rotated.prefix)).toBe(true);
    expect(rotated.prefix).not.toContain(keyIdOf(old));
  });

  it('returns a plain record (from before sealing) as it is', () => {
    expect(keyring.openRecord('c1', RECORD)).toBe(RECORD);
  });
});

describe('loadSecretsKeyring', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const fresh = () => {
    dir = mkdtempSync(join(tmpdir(), 'bosun-secrets-key-'));
    return dir;
  };

  it('refuses malformed keys with a message naming where they came from', () => {
    const dataDir = fresh();
    expect(() => loadSecretsKeyring(dataDir, { key: 'too-short' }, () => new Set())).toThrow(
      /BOSUN_SECRETS_KEY must be 32 random bytes in base64/,
    );
    expect(() => loadSecretsKeyring(dataDir, { key: randomBytes(16).toString('base64') }, () => new Set())).toThrow(
      /BOSUN_SECRETS_KEY must be 32/,
    );
    const key = randomBytes(32).toString('base64');
    expect(() => loadSecretsKeyring(dataDir, { key, previousKeys: ['nope'] }, () => new Set())).toThrow(
      /BOSUN_SECRETS_KEY_PREVIOUS must be 32/,
    );
    expect(() => loadSecretsKeyring(dataDir, { keyFile: join(dataDir, 'absent') }, () => new Set())).toThrow(
      /cannot read the secrets key file .*absent/,
    );
    writeFileSync(join(dataDir, 'bad.key'), 'not a key\n');
    expect(() => loadSecretsKeyring(dataDir, { keyFile: join(dataDir, 'bad.key') }, () => new Set())).toThrow(
      /the secrets key file .*bad\.key must be 32/,
    );
    expect(() => loadSecretsKeyring(dataDir, { key, keyFile: join(dataDir, 'bad.key') }, () => new Set())).toThrow(
      /not both/,
    );
    // None of this generated a key.
    expect(existsSync(join(dataDir, 'secrets.key'))).toBe(false);
  });

  it('reads a key file', () => {
    const dataDir = fresh();
    const key = randomBytes(32);
    writeFileSync(join(dataDir, 'my.key'), `${key.toString('base64')}\n`);
    expect(loadSecretsKeyring(dataDir, { keyFile: join(dataDir, 'my.key') }, () => new Set()).keyId).toBe(keyIdOf(key));
  });

  it('never generates a key over sealed data whose key is missing, unless that key is given as previous', () => {
    const dataDir = fresh();
    const old = randomBytes(32);
    expect(() => loadSecretsKeyring(dataDir, {}, () => new Set([keyIdOf(old)]))).toThrow(/secrets\.key is missing/);
    expect(readdirSync(dataDir)).toEqual([]);
    const keyring = loadSecretsKeyring(
      dataDir,
      { previousKeys: [old.toString('base64')] },
      () => new Set([keyIdOf(old)]),
    );
    expect(keyring.has(keyIdOf(old))).toBe(true);
    expect(readdirSync(dataDir)).toEqual(['secrets.key']);
  });
});
