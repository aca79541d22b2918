import { stat } from 'node:fs/promises';
import { InputError } from '@bosun/http';
import { GitChangesQuery, GitDiffQuery } from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { NotFoundResponse, validationResponse } from '../params.ts';
import { gitChanges, gitDiff, isCommit } from './git-state.ts';
import { type WorkspaceBounds, insideWorkspace } from './workspace-path.ts';

const tags = ['Git'];
const ref = (id: string) => Type.Unsafe({ $ref: `${id}#` });
const PATH_LOC = ['query', 'path'];

/** OpenHands' `/api/git`: what changed in a repository of the workspace, and one file before and after. */
export function gitRoutes(app: FastifyInstance, { bounds }: { bounds: WorkspaceBounds }): void {
  app.get<{ Querystring: GitChangesQuery }>(
    '/api/git/changes',
    {
      schema: {
        tags,
        summary: 'Git changes (files differing from `ref` and untracked ones; [] outside a repository)',
        querystring: GitChangesQuery,
        response: { 200: Type.Array(ref('GitChange')), 403: NotFoundResponse, 422: validationResponse },
      },
    },
    async (request) => {
      const dir = insideWorkspace(bounds, request.query.path, PATH_LOC);
      if (!(await stat(dir).catch(() => undefined))?.isDirectory()) return [];
      await checkRef(dir, request.query.ref);
      return gitChanges(dir, request.query.ref);
    },
  );

  app.get<{ Querystring: GitDiffQuery }>(
    '/api/git/diff',
    {
      schema: {
        tags,
        summary: 'Git diff (a file at `ref` and on disk, or before and after `commit`)',
        querystring: GitDiffQuery,
        response: { 200: ref('GitDiff'), 403: NotFoundResponse, 422: validationResponse },
      },
    },
    async (request) => {
      const { path, ref: base, commit } = request.query;
      const file = insideWorkspace(bounds, path, PATH_LOC);
      if ((await stat(file).catch(() => undefined))?.isDirectory()) {
        throw new InputError([{ loc: PATH_LOC, msg: 'Path is a directory', type: 'value_error' }]);
      }
      return gitDiff(file, base, commit);
    },
  );
}

/** An unknown `ref` is bad input, not "no changes". Outside a repository every ref is ignored. */
async function checkRef(dir: string, base: string | undefined): Promise<void> {
  if (base === undefined || (await isCommit(dir, base))) return;
  if (!(await isCommit(dir, 'HEAD'))) return;
  throw new InputError([{ loc: ['query', 'ref'], msg: `Unknown revision: ${base}`, type: 'value_error' }]);
}
