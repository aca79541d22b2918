import { request } from 'node:http';

const TIMEOUT_MS = 5_000;

/** GET `path` as JSON from a Unix socket or a base URL; undefined for anything but a 200 with JSON. */
export function getJson(
  target: { socketPath: string } | { url: string },
  path: string,
  headers: Record<string, string> = {},
): Promise<unknown> {
  return new Promise((resolve) => {
    const url = 'url' in target ? new URL(path, target.url) : undefined;
    const where = url
      ? { host: url.hostname, port: url.port, path: url.pathname }
      : { socketPath: (target as { socketPath: string }).socketPath, path };
    const req = request({ ...where, method: 'GET', headers, timeout: TIMEOUT_MS, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => {
        if (response.statusCode !== 200) return resolve(undefined);
        try {
          resolve(JSON.parse(body));
        } catch {
          resolve(undefined);
        }
      });
      response.on('error', () => resolve(undefined));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
    req.end();
  });
}
