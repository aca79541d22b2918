import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NotFoundError } from '@bosun/http';
import type { ApiRoutes } from './api-routes.ts';
import { installationRoot } from './installation.ts';
import { README_PATH } from './server-info.ts';

/** `/README.md`: the README of the installed Bosun, as plain text a browser shows. */
export const readmeRoutes: ApiRoutes = (app) => {
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
      const root = installationRoot();
      const file = root && join(root, 'README.md');
      const text = file && (await readFile(file, 'utf8').catch(() => undefined));
      if (text === undefined) throw new NotFoundError('This installation has no README');
      return reply.type('text/markdown; charset=utf-8').header('x-content-type-options', 'nosniff').send(text);
    },
  );
};
