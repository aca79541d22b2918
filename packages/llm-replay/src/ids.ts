import { createHash, randomBytes } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function randomChars(length: number, alphabet: string): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += alphabet[byte % alphabet.length];
  return out;
}

const hex = (length: number) =>
  randomBytes(Math.ceil(length / 2))
    .toString('hex')
    .slice(0, length);

/** Ids shaped like the real services' ids. */
export const ids = {
  chatCompletion: () => `chatcmpl-${randomChars(29, ALPHANUMERIC)}`,
  openaiCall: () => `call_${randomChars(24, ALPHANUMERIC)}`,
  response: () => `resp_${hex(48)}`,
  responseMessage: () => `msg_${hex(48)}`,
  responseFunctionCall: () => `fc_${hex(48)}`,
  responseReasoning: () => `rs_${hex(48)}`,
  anthropicMessage: () => `msg_01${randomChars(22, BASE58)}`,
  anthropicToolUse: () => `toolu_01${randomChars(22, BASE58)}`,
  request: () => `req_${randomChars(24, ALPHANUMERIC)}`,
};

/** A stable opaque value standing in for a signature or encrypted reasoning. */
export function fakeSignature(text: string): string {
  const digest = createHash('sha256').update(`llm-replay:${text}`).digest();
  return Buffer.concat([Buffer.from('llm-replay-signature:'), digest]).toString('base64');
}

export const unixSeconds = () => Math.floor(Date.now() / 1000);

/** A rough token count: one token per four characters, at least one for non-empty text. */
export function estimateTokens(text: string): number {
  return text.length === 0 ? 0 : Math.max(1, Math.ceil(text.length / 4));
}

/** Splits text into word-sized deltas (whitespace kept), so streams have several deltas. */
export function splitWords(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** Splits a string into fixed-size pieces (for streamed JSON arguments). */
export function splitFixed(text: string, size = 12): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}
