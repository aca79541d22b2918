import { verify } from 'node:crypto';
import { LicenseFormatError, type LicensePayload, decodeLicense, payloadProblems } from './format.ts';
import { type LicenseTrust, publicKeysOf } from './issuer.ts';

/** What a license file is worth, checked offline: its signature, its issuer, its fields (not its dates yet). */
export type LicenseVerdict =
  | { status: 'none' }
  | { status: 'invalid'; reason: string }
  /** Signed by the trusted issuer: its dates decide, at each moment (`licenseStateAt`). */
  | { status: 'signed'; payload: LicensePayload };

/** A license at one moment. `payload` only when the issuer signed it: nothing of an unverified file is believed. */
export interface LicenseState {
  status: 'valid' | 'expired' | 'invalid' | 'none';
  /** Why it is not valid. */
  reason?: string;
  payload?: LicensePayload;
}

/** Verifies `text` (a license file's content; none: no license) against `trust`, without asking anyone. */
export function verifyLicense(text: string | undefined, trust: LicenseTrust): LicenseVerdict {
  if (text === undefined || text.trim() === '') return { status: 'none' };
  let decoded: ReturnType<typeof decodeLicense>;
  try {
    decoded = decodeLicense(text);
  } catch (error) {
    if (error instanceof LicenseFormatError) return { status: 'invalid', reason: `malformed: ${error.message}` };
    throw error;
  }
  const keys = publicKeysOf(trust);
  if (keys.length === 0) {
    return { status: 'invalid', reason: 'this build of Bosun holds no license issuer key: no license can be verified' };
  }
  if (!keys.some((key) => verifyEd25519(decoded.signingInput, key, decoded.signature))) {
    return {
      status: 'invalid',
      reason: `the signature does not verify with the public key of ${trust.issuer} (the file was altered, or signed by someone else)`,
    };
  }
  const problems = payloadProblems(decoded.payload);
  if (problems.length > 0) return { status: 'invalid', reason: `malformed payload: ${problems.join('; ')}` };
  const payload = decoded.payload as LicensePayload;
  if (payload.issuer !== trust.issuer) {
    return {
      status: 'invalid',
      reason: `issued by ${JSON.stringify(payload.issuer)}, not by ${JSON.stringify(trust.issuer)}`,
    };
  }
  return { status: 'signed', payload };
}

/** `verdict` at `now`: a signed license is valid between `not_before` and `expires_at`. */
export function licenseStateAt(verdict: LicenseVerdict, now: Date): LicenseState {
  if (verdict.status !== 'signed') return verdict;
  const { payload } = verdict;
  if (now.getTime() < Date.parse(payload.not_before)) {
    return { status: 'invalid', reason: `not valid before ${payload.not_before}`, payload };
  }
  if (now.getTime() >= Date.parse(payload.expires_at)) {
    return { status: 'expired', reason: `expired at ${payload.expires_at}`, payload };
  }
  return { status: 'valid', payload };
}

function verifyEd25519(data: Buffer, key: ReturnType<typeof publicKeysOf>[number], signature: Buffer): boolean {
  try {
    return verify(null, data, key, signature);
  } catch {
    // A signature of the wrong length, for instance: it does not verify.
    return false;
  }
}
