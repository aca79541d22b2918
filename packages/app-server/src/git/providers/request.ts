import { type LookupAddress, lookup } from 'node:dns';
import { type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';

/** The largest answer read from a provider (a page of 100 repositories is far less). */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** A provider address the app will not ask (the message says why). */
export class AddressRefusedError extends Error {
  override name = 'AddressRefusedError';
}

export interface ProviderRequest {
  headers: Record<string, string>;
  timeoutMs: number;
  /** Whether an address may be asked (checked for every address the name resolves to, then connected to). */
  admit?: (address: string) => boolean;
}

export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * GETs `url` (POSTs `body` as JSON when given: GitHub's GraphQL API), following no redirect. With `admit`, the
 * host's addresses are checked as the connection resolves them (no second lookup could lead elsewhere). Rejects on
 * a refused address, a network failure or the timeout (`TimeoutError`).
 */
export function requestRaw(
  url: URL,
  { headers, timeoutMs, admit }: ProviderRequest,
  body?: string,
): Promise<RawAnswer> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (admit && isIP(host) && !admit(host)) return Promise.reject(refused(host, host));
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const sent = send(url, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
      ...(admit ? { lookup: guardedLookup(admit) } : {}),
    });
    sent.on('error', (error) => reject(error.name === 'AbortError' ? timeoutError() : error));
    sent.on('response', (answer) => {
      read(answer).then(
        (text) => resolve({ status: answer.statusCode ?? 502, headers: headersOf(answer), text }),
        reject,
      );
    });
    sent.end(body);
  });
}

function read(answer: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    answer.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) answer.destroy(new Error('the answer is too large'));
      else chunks.push(chunk);
    });
    answer.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    answer.on('error', (error) => reject(error.name === 'AbortError' ? timeoutError() : error));
  });
}

const timeoutError = () => Object.assign(new Error('timed out'), { name: 'TimeoutError' });
const refused = (host: string, address: string) =>
  new AddressRefusedError(`${host} resolves to an internal address (${address}): not asked (git_allow_private_hosts)`);

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/**
 * Every address `hostname` resolves to (as the system resolves it), each admitted; else an `AddressRefusedError`
 * (or the resolver's error).
 */
export function admittedAddresses(
  hostname: string,
  admit: (address: string) => boolean,
  options: object = {},
): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return reject(error);
      const bad = addresses.find(({ address }) => !admit(address));
      if (bad) return reject(refused(hostname, bad.address));
      if (addresses.length === 0) return reject(new Error(`${hostname} does not resolve`));
      resolve(addresses);
    });
  });
}

/** A `lookup` that resolves as the system does, and fails when an address is not admitted. */
function guardedLookup(admit: (address: string) => boolean) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    admittedAddresses(hostname, admit, options).then(
      (addresses) => {
        const [first] = addresses as [LookupAddress];
        if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (error: Error) => callback(error, []),
    );
  };
}

function headersOf(answer: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}
