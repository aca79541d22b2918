import { type KeyObject, createPublicKey } from 'node:crypto';

/** Whom licenses must come from, and the Ed25519 public keys their signatures are checked with. */
export interface LicenseTrust {
  issuer: string;
  /** Raw 32-byte Ed25519 public keys, base64url (a JWK's `x`); a license signed by any of them verifies. */
  publicKeys: readonly string[];
}

/**
 * The issuer this build trusts. Its public keys are compiled in, never read from a setting: a key an install could
 * set would let it sign its own license. The release's key goes here (`openssl genpkey -algorithm ed25519`, the
 * private half kept by the issuer alone); until then no license verifies and every install runs in community mode.
 */
export const LICENSE_ISSUER: LicenseTrust = {
  issuer: 'Bosun',
  publicKeys: [],
};

/** The keys of `trust` as key objects; a key that is not a raw Ed25519 public key is a programming error. */
export function publicKeysOf(trust: LicenseTrust): KeyObject[] {
  return trust.publicKeys.map((x) => {
    if (!/^[A-Za-z0-9_-]{43}$/.test(x)) throw new Error(`not a base64url Ed25519 public key: ${x}`);
    return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
  });
}
