import { type KeyObject, generateKeyPairSync, sign } from 'node:crypto';
import type { LicensePayload, LicenseTrust } from '../../src/index.ts';

/** An issuer of licenses for tests: a fresh Ed25519 key pair, and the trust a server given it checks against. */
export interface TestIssuer {
  trust: LicenseTrust;
  privateKey: KeyObject;
}

export function testIssuer(issuer = 'Test Issuer'): TestIssuer {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const x = publicKey.export({ format: 'jwk' }).x as string;
  return { trust: { issuer, publicKeys: [x] }, privateKey };
}

const DAY = 24 * 60 * 60 * 1000;

/** A payload valid from yesterday for a year, with what `changes` says. */
export function payload(issuer: TestIssuer, changes: Partial<LicensePayload> = {}): LicensePayload {
  return {
    issuer: issuer.trust.issuer,
    licensee: 'ops@example.com',
    license_id: 'lic-0123456789abcdef',
    seats: 10,
    not_before: new Date(Date.now() - DAY).toISOString(),
    expires_at: new Date(Date.now() + 365 * DAY).toISOString(),
    features: ['sso', 'audit-log'],
    ...changes,
  };
}

/** A license file (a compact JWS signed with EdDSA) of `body`, signed with `key`. */
export function signLicense(body: unknown, key: KeyObject, header: object = { alg: 'EdDSA', typ: 'bosun-license' }) {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part(header)}.${part(body)}`;
  return `${input}.${sign(null, Buffer.from(input), key).toString('base64url')}\n`;
}

export const daysFromNow = (days: number) => new Date(Date.now() + days * DAY).toISOString();
