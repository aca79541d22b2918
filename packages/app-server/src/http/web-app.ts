import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiRoutes } from './api-routes.ts';
import { installationRoot } from './installation.ts';

/** Paths that are the servers' own (never the web application's pages): unknown ones stay JSON 404s. */
const SERVER_PATHS = /^\/(api|sockets|sandboxes|docs|assets)(\/|$)/;

/**
 * What the page may load: its own scripts and styles (plus inline styles, which the dialog primitives inject),
 * images of its own or inlined (browser screenshots), and calls and WebSockets to this origin only.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

/** The built web application of this installation (`packages/web/dist`), if it was built. */
export function installedWebRoot(): string | undefined {
  const root = installationRoot();
  const dist = root && join(root, 'packages', 'web', 'dist');
  return dist && existsSync(join(dist, 'index.html')) ? dist : undefined;
}

/**
 * The web application at `/`: its hashed assets under `/assets/` (cached for good), and its page for `/` and for
 * every other path a browser navigates to (the application routes it), so a bookmarked or shared URL opens.
 * Requests that are not a browser asking for a page keep the JSON 404. Without a build, `/` says how to make one.
 */
export function webAppRoutes(webRoot: string | undefined): ApiRoutes {
  return async (app) => {
    if (!webRoot) {
      app.get('/', { schema: { hide: true } }, async (_request, reply) =>
        reply.type('text/html; charset=utf-8').send(NOT_BUILT_PAGE),
      );
      return;
    }
    const page = currentPage(join(webRoot, 'index.html'));
    const sendPage = (reply: FastifyReply) =>
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('content-security-policy', CONTENT_SECURITY_POLICY)
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'same-origin')
        .send(page());
    await app.register(fastifyStatic, {
      root: join(webRoot, 'assets'),
      prefix: '/assets/',
      decorateReply: false,
      index: false,
      immutable: true,
      maxAge: '365d',
      // The build wrote each asset's brotli and gzip forms beside it (scripts/build-web.mjs).
      preCompressed: true,
      schemaHide: true,
    });
    app.get('/', { schema: { hide: true } }, async (_request, reply) => sendPage(reply));
    app.get('/*', { schema: { hide: true } }, async (request, reply) => {
      if (!isPageNavigation(request)) return reply.code(404).send({ detail: 'Not Found' });
      return sendPage(reply);
    });
  };
}

/**
 * The page as built now: read again when the build changed it (a rebuild while the server runs names new asset
 * files; the page read at start would point at files that are gone, a blank page).
 */
function currentPage(file: string): () => string {
  let read = { mtimeMs: -1, text: '' };
  return () => {
    const { mtimeMs } = statSync(file, { throwIfNoEntry: false }) ?? { mtimeMs: read.mtimeMs };
    if (mtimeMs !== read.mtimeMs) read = { mtimeMs, text: readFileSync(file, 'utf8') };
    return read.text;
  };
}

function isPageNavigation(request: FastifyRequest): boolean {
  const path = request.url.split('?')[0] ?? '';
  return !SERVER_PATHS.test(path) && (request.headers.accept ?? '').includes('text/html');
}

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Bosun</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.5">
<h1>Bosun</h1>
<p>The app server runs, but this installation's web application is not built. Build it with <code>npm run build</code>
(<code>npm start</code> builds it before it starts the server), then reload this page.</p>
<p>The API: <a href="/docs">documentation</a>, <a href="/openapi.json">OpenAPI document</a>, <a href="/README.md">README</a>.</p>
</body>
</html>
`;
