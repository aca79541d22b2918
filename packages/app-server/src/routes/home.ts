import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NotFoundError } from '@bosun/http';
import type { FastifyInstance } from 'fastify';
import { README_PATH, SERVER_TITLE, SERVER_VERSION } from '../server-info.ts';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The page a person opening the server in a browser sees until the web application exists. */
function homePage(): string {
  const title = escapeHtml(`${SERVER_TITLE} ${SERVER_VERSION}`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 42rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.5; color: #1b1f24; }
  h1 { font-size: 1.6rem; margin-bottom: 0.25rem; }
  code { background: #f3f4f6; padding: 0.1rem 0.3rem; border-radius: 4px; }
  li { margin: 0.3rem 0; }
</style>
</head>
<body>
<h1>${title}</h1>
<p>This is <strong>Bosun</strong>, an open-source agent platform: its application server is running here.</p>
<p>The web application comes in a later release. Until then, use the HTTP API under <code>/api/v1</code>:</p>
<ul>
  <li><a href="/docs">API documentation</a> (interactive)</li>
  <li><a href="/openapi.json">OpenAPI document</a> (<code>/openapi.json</code>, for generating clients)</li>
  <li><a href="${README_PATH}">README</a>: how to configure and run Bosun</li>
  <li><a href="/ready">Readiness</a> of the server and what it depends on</li>
</ul>
</body>
</html>
`;
}

/** `/`: what is running, for a person in a browser (no secrets, nothing of the configuration). */
export function homeRoutes(app: FastifyInstance): void {
  const page = homePage();
  app.get(
    '/',
    {
      schema: {
        tags: ['Server details'],
        summary: 'Home page (HTML)',
        response: { 200: { description: 'An HTML page', content: { 'text/html': { schema: { type: 'string' } } } } },
      },
    },
    async (_request, reply) => reply.type('text/html; charset=utf-8').send(page),
  );
}

/** The installation's README: beside the root `package.json` (the one naming the workspaces) above this module. */
function readmeFile(): string | undefined {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dirname(dir) !== dir; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && 'workspaces' in JSON.parse(readFileSync(manifest, 'utf8'))) {
      return join(dir, 'README.md');
    }
  }
  return undefined;
}

/** `/README.md`: the README of the installed Bosun, as plain text a browser shows. */
export function readmeRoutes(app: FastifyInstance): void {
  app.get(
    README_PATH,
    {
      schema: {
        tags: ['Server details'],
        summary: 'The README of this installation (Markdown)',
        response: { 200: { description: 'Markdown', content: { 'text/markdown': { schema: { type: 'string' } } } } },
      },
    },
    async (_request, reply) => {
      const file = readmeFile();
      const text = file && (await readFile(file, 'utf8').catch(() => undefined));
      if (text === undefined) throw new NotFoundError('This installation has no README');
      return reply.type('text/markdown; charset=utf-8').header('x-content-type-options', 'nosniff').send(text);
    },
  );
}
