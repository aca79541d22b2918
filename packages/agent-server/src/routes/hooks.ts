import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from '@bosun/http';
import { HookConfig, type ValidationError, safeParse } from '@bosun/protocol';
import { hookConfigProblems } from '@bosun/sources';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { NotFoundResponse, validationResponse } from './params.ts';
import { type WorkspaceBounds, insideWorkspace } from './workspace/workspace-path.ts';

/** The project's hooks file, relative to the project directory (OpenHands' place for it). */
export const PROJECT_HOOKS_FILE = join('.openhands', 'hooks.json');

const HooksRequest = Type.Object(
  {
    project_dir: Type.Optional(
      Type.Union([
        Type.String({ minLength: 1, description: 'Inside the workspace (default: the workspace).' }),
        Type.Null(),
      ]),
    ),
  },
  { additionalProperties: false },
);
const HooksResponse = Type.Object({
  hook_config: Type.Union([Type.Unsafe({ $ref: 'HookConfig#' }), Type.Null()], {
    description: 'The hooks of the project, or null when it has no hooks file.',
  }),
});

/**
 * The hooks a project declares in `.openhands/hooks.json`, checked as a conversation's `hook_config` is: a file
 * that is not valid JSON or not a valid configuration is a 422 naming the file, never a silent null.
 */
export function hookRoutes(app: FastifyInstance, { bounds }: { bounds: WorkspaceBounds }): void {
  app.post<{ Body: { project_dir?: string | null } | undefined }>(
    '/api/hooks',
    {
      schema: {
        tags: ['Hooks'],
        summary: 'Get hooks (of the project directory’s `.openhands/hooks.json`)',
        body: HooksRequest,
        response: { 200: HooksResponse, 403: NotFoundResponse, 422: validationResponse },
      },
      // The body is optional: none is `{}`.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      const dir = insideWorkspace(bounds, request.body?.project_dir ?? bounds.workspace, ['body', 'project_dir']);
      const text = await readFile(join(dir, PROJECT_HOOKS_FILE), 'utf8').catch(() => undefined);
      if (text === undefined) return { hook_config: null };
      return { hook_config: parseHooksFile(text) };
    },
  );
}

function parseHooksFile(text: string): HookConfig {
  const loc = ['file', PROJECT_HOOKS_FILE];
  const fail = (problems: ValidationError[]) =>
    new InputError(problems.map((problem) => ({ ...problem, loc: [...loc, ...problem.loc] })));
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw fail([{ loc: [], msg: `Not valid JSON: ${(error as Error).message}`, type: 'json_invalid' }]);
  }
  const parsed = safeParse(HookConfig, json);
  if (!parsed.ok) throw fail(parsed.errors);
  const problems = hookConfigProblems(parsed.value, []);
  if (problems.length) throw fail(problems);
  return parsed.value;
}
