import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Whether `header` (`X-Hub-Signature-256: sha256=<hex>`) is the HMAC-SHA256 of `body` under the webhook secret,
 * compared in constant time: nothing of the secret's digest leaks through how long a refusal takes.
 */
export function signatureMatches(secret: string, body: Buffer, header: string | undefined): boolean {
  const given = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '')?.[1];
  if (!given) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(Buffer.from(given, 'hex'), expected);
}
