import type { Agent, ClientRequest, IncomingMessage } from 'node:http';

/**
 * The part of `fetch` the client uses: `fetch` itself is one. `maxBytes` (an answer larger is refused with an
 * `AnswerTooLargeError` before it is all read) is honoured by the default transport; others may ignore it.
 */
export type Transport = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal; maxBytes?: number },
) => Promise<TransportResponse>;

/** An answer's body is larger than the request allows. */
export class AnswerTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the answer is larger than ${maxBytes} bytes`);
  }
}

export interface TransportResponse {
  status: number;
  ok: boolean;
  headers: Headers;
  text(): Promise<string>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

type NodeHttp = typeof import('node:http');

/**
 * The default transport: `node:http(s)` with keep-alive connections in Node (it reads a large JSON answer about
 * a millisecond sooner than `fetch`, see `bench/agent-server-batch-get.ts`), else the global `fetch`. Loaded on
 * first use, so that the client bundles for a browser.
 */
export function defaultTransport(): Transport {
  if (typeof process === 'undefined' || !process.versions?.node) return (url, init) => globalThis.fetch(url, init);
  let modules: Promise<{ http: NodeHttp; https: NodeHttp; agents: { http: Agent; https: Agent } }> | undefined;
  const load = async () => {
    const [http, https] = await Promise.all([import('node:http'), import('node:https')]);
    const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
    return { http, https: https as unknown as NodeHttp, agents };
  };
  return async (url, init) => {
    modules ??= load();
    const { http, https, agents } = await modules;
    const secure = url.startsWith('https:');
    const headers: Record<string, string> = { ...init.headers };
    if (init.body !== undefined) headers['content-length'] = String(Buffer.byteLength(init.body));
    const { signal } = init;
    let request: ClientRequest | undefined;
    // Not `request`'s own `signal` option: it made each request cost a few hundred microseconds more.
    const abort = () => request?.destroy(signal?.reason ?? new Error('aborted'));
    signal?.addEventListener('abort', abort, { once: true });
    try {
      const response = await new Promise<IncomingMessage>((resolve, reject) => {
        request = (secure ? https : http).request(url, {
          method: init.method,
          headers,
          agent: secure ? agents.https : agents.http,
        });
        request.on('response', resolve);
        request.on('error', reject);
        request.end(init.body);
        if (signal?.aborted) abort();
      });
      const body = await readBody(response, init.maxBytes);
      const status = response.statusCode ?? 0;
      return {
        status,
        ok: status >= 200 && status <= 299,
        get headers() {
          return toHeaders(response.headers);
        },
        text: async () => body.toString('utf8'),
        arrayBuffer: async () => body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer,
      };
    } finally {
      signal?.removeEventListener('abort', abort);
    }
  };
}

function readBody(response: IncomingMessage, maxBytes = Number.POSITIVE_INFINITY): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const tooLarge = () => {
      reject(new AnswerTooLargeError(maxBytes));
      response.destroy();
    };
    if (Number(response.headers['content-length']) > maxBytes) return tooLarge();
    response.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) return tooLarge();
      chunks.push(chunk);
    });
    response.on('end', () => resolve(Buffer.concat(chunks)));
    response.on('error', reject);
    response.on('aborted', () => reject(new Error('the connection closed before the whole answer came')));
  });
}

function toHeaders(raw: IncomingMessage['headers']): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, item);
  }
  return headers;
}
