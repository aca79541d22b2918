import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { InputError, NotFoundError } from '@bosun/http';
import { FilePathQuery, Success } from '@bosun/protocol';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ConversationService } from '../../conversations/service.ts';
import { ConversationIdParams, NotFoundResponse, conversationOf, validationResponse } from '../params.ts';
import { zipTrajectory } from './trajectory.ts';
import { receiveUpload } from './upload.ts';
import { type WorkspaceBounds, insideWorkspace } from './workspace-path.ts';

export interface FileRouteDeps {
  service: ConversationService;
  bounds: WorkspaceBounds;
}

const tags = ['Files'];
const PATH_LOC = ['query', 'path'];
const download = (description: string, type: string) => ({
  description,
  content: { [type]: { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
});

/** OpenHands' `/api/file`: upload and download files of the workspace, and a conversation's trajectory. */
export function fileRoutes(app: FastifyInstance, { service, bounds }: FileRouteDeps): void {
  // The stream is read by the upload route itself (busboy), never buffered whole.
  app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null, {}));

  app.post<{ Querystring: FilePathQuery }>(
    '/api/file/upload',
    {
      schema: {
        tags,
        summary: 'Upload file (multipart field `file`; parent directories are created, a file is replaced)',
        querystring: FilePathQuery,
        body: {
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } },
              },
            },
          },
        },
        response: { 200: Success, 403: NotFoundResponse, 413: NotFoundResponse, 422: validationResponse },
      },
    },
    async (request) => {
      const target = insideWorkspace(bounds, request.query.path, PATH_LOC);
      if ((await stat(target).catch(() => undefined))?.isDirectory()) {
        throw new InputError([{ loc: PATH_LOC, msg: 'Path is a directory', type: 'value_error' }]);
      }
      await receiveUpload(request, target);
      return { success: true };
    },
  );

  app.get<{ Querystring: FilePathQuery }>(
    '/api/file/download',
    {
      schema: {
        tags,
        summary: 'Download file',
        querystring: FilePathQuery,
        response: {
          200: download('The file.', 'application/octet-stream'),
          403: NotFoundResponse,
          404: NotFoundResponse,
          422: validationResponse,
        },
      },
    },
    async (request, reply) => {
      const file = insideWorkspace(bounds, request.query.path, PATH_LOC);
      const info = await stat(file).catch(() => undefined);
      if (!info) throw new NotFoundError(`File not found: ${request.query.path}`);
      if (!info.isFile()) throw new InputError([{ loc: PATH_LOC, msg: 'Path is not a file', type: 'value_error' }]);
      return sendFile(reply, createReadStream(file), basename(file), 'application/octet-stream', info.size);
    },
  );

  app.get(
    '/api/file/download-trajectory/:conversation_id',
    {
      schema: {
        tags,
        summary: 'Download trajectory (a zip: base_state.json and events/)',
        params: ConversationIdParams,
        response: {
          200: download('The zipped trajectory.', 'application/zip'),
          404: NotFoundResponse,
          422: validationResponse,
        },
      },
    },
    async (request, reply) => {
      const conversation = conversationOf(service, request);
      return sendFile(
        reply,
        zipTrajectory(service, conversation),
        `trajectory-${conversation.id}.zip`,
        'application/zip',
      );
    },
  );
}

/** Sends `body` as an attachment named `name`; without a `size` (a zip made while it is sent), chunked. */
function sendFile(reply: FastifyReply, body: Readable, name: string, type: string, size?: number): FastifyReply {
  if (size !== undefined) reply.header('content-length', size);
  return reply
    .header('content-type', type)
    .header(
      'content-disposition',
      `attachment; filename="${name.replace(/["\\\r\n]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    )
    .header('x-content-type-options', 'nosniff')
    .send(body);
}
