import { statSync } from 'node:fs';
import { InputError, NotFoundError } from '@bosun/http';
import { BashEventSearch, type ExecuteBashRequest } from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { BashEventStore } from '../../bash/event-store.ts';
import type { BashRunner, CommandRequest } from '../../bash/runner.ts';
import { NotFoundResponse, validationResponse } from '../params.ts';
import { type WorkspaceBounds, insideWorkspace } from './workspace-path.ts';

export interface BashRouteDeps {
  bash: BashRunner;
  events: BashEventStore;
  bounds: WorkspaceBounds;
}

const tags = ['Bash'];
const ref = (id: string) => Type.Unsafe({ $ref: `${id}#` });
const EventIdParams = Type.Object(
  { event_id: Type.String({ pattern: '^[0-9a-fA-F-]{32,36}$', description: 'A bash event id.' }) },
  { additionalProperties: false },
);
const EventIds = Type.Array(Type.String({ maxLength: 36 }), { maxItems: 100, description: 'Bash event ids.' });

/** The command of `request`, its `cwd` resolved inside the workspace (the workspace itself by default). */
export function commandOf(request: ExecuteBashRequest, bounds: WorkspaceBounds, loc: string[]): CommandRequest {
  // No process argument or path holds one: refused here, it would fail the spawn.
  for (const field of ['command', 'cwd'] as const) {
    if (request[field]?.includes('\0')) {
      throw new InputError([{ loc: [...loc, field], msg: 'must not contain a NUL character', type: 'value_error' }]);
    }
  }
  const cwd = insideWorkspace(bounds, request.cwd ?? bounds.workspace, [...loc, 'cwd']);
  if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) {
    throw new InputError([{ loc: [...loc, 'cwd'], msg: 'Not an existing directory', type: 'value_error' }]);
  }
  return { command: request.command, cwd, timeout: request.timeout };
}

/** OpenHands' `/api/bash`: commands outside conversations, run in the workspace, and their recorded output. */
export function bashRoutes(app: FastifyInstance, { bash, events, bounds }: BashRouteDeps): void {
  const commandSchema = (summary: string, response: string) => ({
    schema: {
      tags,
      summary,
      body: ref('ExecuteBashRequest'),
      response: { 200: ref(response), 403: NotFoundResponse, 422: validationResponse },
    },
  });
  app.post<{ Body: ExecuteBashRequest }>(
    '/api/bash/start_bash_command',
    commandSchema('Start bash command (answers at once; its output comes as events)', 'BashCommand'),
    async (request) => bash.start(commandOf(request.body, bounds, ['body'])).command,
  );
  app.post<{ Body: ExecuteBashRequest }>(
    '/api/bash/execute_bash_command',
    commandSchema('Execute bash command (waits; answers its last output, with the exit code)', 'BashOutput'),
    async (request) => bash.start(commandOf(request.body, bounds, ['body'])).done,
  );

  app.get<{ Querystring: BashEventSearch }>(
    '/api/bash/bash_events/search',
    {
      schema: {
        tags,
        summary: 'Search bash events',
        querystring: BashEventSearch,
        response: { 200: ref('BashEventPage'), 422: validationResponse },
      },
    },
    async (request) => {
      const page = events.search(request.query);
      if (!page) {
        throw new InputError([
          { loc: ['query', 'page_id'], msg: `No bash event with id ${request.query.page_id}`, type: 'value_error' },
        ]);
      }
      return page;
    },
  );
  app.get<{ Params: { event_id: string } }>(
    '/api/bash/bash_events/:event_id',
    {
      schema: {
        tags,
        summary: 'Get bash event',
        params: EventIdParams,
        response: { 200: ref('BashEvent'), 404: NotFoundResponse, 422: validationResponse },
      },
    },
    async (request) => {
      const event = events.get(request.params.event_id);
      if (!event) throw new NotFoundError(`Bash event not found: ${request.params.event_id}`);
      return event;
    },
  );
  const batchGet = (summary: string) => ({
    exposeHeadRoute: false,
    schema: {
      tags,
      summary,
      body: EventIds,
      response: { 200: Type.Array(Type.Union([ref('BashEvent'), Type.Null()])), 422: validationResponse },
    },
  });
  const batchHandler = async (request: { body: unknown }) =>
    (request.body as string[]).map((id) => events.get(id) ?? null);
  app.get(
    '/api/bash/bash_events/',
    batchGet('Batch get bash events (JSON body: event ids; null for an unknown one)'),
    batchHandler,
  );
  app.post('/api/bash/bash_events/batch', batchGet('Batch get bash events (POST twin for browsers)'), batchHandler);
  app.delete(
    '/api/bash/bash_events',
    {
      schema: {
        tags,
        summary: 'Clear all bash events',
        response: { 200: ref('ClearedBashEvents') },
      },
    },
    async () => ({ cleared_count: events.clear() }),
  );
}
