import type { AddressInfo } from 'node:net';
import { type AppServer, type AppServerOptions, buildAppServer } from '../../src/index.ts';

export interface ListeningApp {
  server: AppServer;
  url: string;
  close(): Promise<void>;
}

/** An app server listening on 127.0.0.1 at a free port. */
export async function listenApp(options: AppServerOptions = {}): Promise<ListeningApp> {
  const server = await buildAppServer({ ...options, config: { log_level: 'silent', ...options.config } });
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = server.app.server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, close: () => server.close() };
}

/** `fetch` of `url + path`, with the body parsed as JSON when it is JSON. */
export async function call(
  url: string,
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; headers: Headers; body: unknown; text: string }> {
  const response = await fetch(`${url}${path}`, init);
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}
