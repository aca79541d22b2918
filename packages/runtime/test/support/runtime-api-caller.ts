import { type Runtime, buildRuntimeApi } from '@bosun/runtime';
import type { FastifyInstance } from 'fastify';

/** The runtime API over `runtime`, listening on a free loopback port, its log lines (at `logLevel`) kept in `logs`. */
export async function listeningRuntimeApi(
  runtime: Runtime,
  apiKey: string,
  logs: string[],
  logLevel: 'info' | 'debug' = 'info',
): Promise<{ app: FastifyInstance; base: string }> {
  const logStream = { write: (line: string) => logs.push(line) };
  const app = buildRuntimeApi({ runtime, apiKeys: [apiKey], logLevel, logStream });
  return { app, base: await app.listen({ host: '127.0.0.1', port: 0 }) };
}

/**
 * Calls a runtime API at `base()` (known once it listens) with `key` in `X-API-Key` unless told another (null:
 * none); answers the status and the JSON body.
 */
export function runtimeApiCaller(base: () => string, defaultKey: string) {
  return async (method: string, path: string, body?: unknown, key: string | null = defaultKey) => {
    const headers: Record<string, string> = key === null ? {} : { 'X-API-Key': key };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${base()}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> & unknown[] };
  };
}
