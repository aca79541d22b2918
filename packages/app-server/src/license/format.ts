import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

const DATE_TIME = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$';

/**
 * What a license says, signed by its issuer. Fields a later issuer adds are kept and ignored: an older Bosun still
 * reads a newer license.
 */
export const LicensePayload = Type.Object({
  issuer: Type.String({ minLength: 1, description: 'Who issued it; must be the issuer this build trusts.' }),
  licensee: Type.String({ pattern: '^[^@\\s]+@[^@\\s]+$', description: 'The e-mail the license is registered to.' }),
  license_id: Type.String({
    minLength: 1,
    description: "The license's id (also the chart registry's password: never shown by the server).",
  }),
  seats: Type.Integer({ minimum: 1, description: 'Users the license is for.' }),
  not_before: Type.String({ pattern: DATE_TIME, description: 'Valid from (ISO 8601).' }),
  expires_at: Type.String({ pattern: DATE_TIME, description: 'Valid until (ISO 8601).' }),
  features: Type.Array(Type.String({ minLength: 1 }), { description: 'Features the license enables.' }),
});
export type LicensePayload = Static<typeof LicensePayload>;

/** A license file as read: its JWS header and payload (not verified yet), and what its signature covers. */
export interface DecodedLicense {
  header: Record<string, unknown>;
  payload: unknown;
  signingInput: Buffer;
  signature: Buffer;
}

/** The license file is not a signed license at all: `message` says what is wrong with it. */
export class LicenseFormatError extends Error {}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * A license file's parts: a JWS in compact serialization (RFC 7515, `header.payload.signature`, each base64url)
 * signed with EdDSA (Ed25519, RFC 8037), whose payload is a JSON `LicensePayload`. Whitespace around it (a trailing
 * newline) is ignored.
 */
export function decodeLicense(text: string): DecodedLicense {
  const parts = text.trim().split('.');
  if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) {
    throw new LicenseFormatError(
      'the file is not a signed license (three base64url parts separated by dots: header.payload.signature)',
    );
  }
  const [header, payload, signature] = parts as [string, string, string];
  const headerJson = jsonOf(header, 'header');
  if (typeof headerJson !== 'object' || headerJson === null || Array.isArray(headerJson)) {
    throw new LicenseFormatError('its header is not a JSON object');
  }
  const alg = (headerJson as Record<string, unknown>).alg;
  if (alg !== 'EdDSA') {
    throw new LicenseFormatError(`it is signed with ${JSON.stringify(alg ?? null)}, not EdDSA (Ed25519)`);
  }
  return {
    header: headerJson as Record<string, unknown>,
    payload: jsonOf(payload, 'payload'),
    signingInput: Buffer.from(`${header}.${payload}`, 'ascii'),
    signature: Buffer.from(signature, 'base64url'),
  };
}

/** What is wrong with a (signed) payload, one phrase per field; empty when it is a `LicensePayload`. */
export function payloadProblems(payload: unknown): string[] {
  const byField = new Map<string, string>();
  for (const error of Value.Errors(LicensePayload, payload)) {
    const field = error.path.slice(1) || 'the payload';
    // The first error of a field says it best (a missing field is also "not an integer").
    if (!byField.has(field)) byField.set(field, `${field}: ${error.message}`);
  }
  if (byField.size > 0) return [...byField.values()];
  const { not_before: from, expires_at: until } = payload as LicensePayload;
  return Number.isNaN(Date.parse(from)) || Number.isNaN(Date.parse(until))
    ? ['not_before, expires_at: must be dates']
    : [];
}

function jsonOf(part: string, name: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    throw new LicenseFormatError(`its ${name} is not JSON`);
  }
}
