import { createReadStream } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { recordingsDir } from '@bosun/agent';
import { NotFoundError } from '@bosun/http';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { ConversationService } from '../../conversations/service.ts';
import { conversationStateDir } from '../../conversations/state-dir.ts';
import { ConversationIdParams, NotFoundResponse, conversationOf, validationResponse } from '../params.ts';

export interface RecordingRouteDeps {
  service: ConversationService;
  dataDir: string;
}

/** A file name, never a path: no separators, no leading dot (so no `..`). */
const FILE_NAME = '^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$';

const RecordingParams = Type.Object(
  {
    conversation_id: ConversationIdParams.properties.conversation_id,
    file_name: Type.String({ pattern: FILE_NAME, description: 'A recording file name, as the list gives it.' }),
  },
  { additionalProperties: false },
);

const RecordingList = Type.Object(
  {
    items: Type.Array(
      Type.Object({
        name: Type.String(),
        size_bytes: Type.Integer(),
        modified_at: Type.String({ format: 'date-time' }),
      }),
    ),
  },
  { description: 'The recordings of the conversation, oldest first.' },
);

/**
 * The browser recordings of a conversation (`browser_stop_recording` saves them in its state directory): the
 * list, and each file as a download. A recording is an HTML page with scripts, so it is sent as an attachment
 * in a sandbox: opened from the API's origin, it could not act on it. Symbolic links are not followed.
 */
export function recordingRoutes(app: FastifyInstance, { service, dataDir }: RecordingRouteDeps): void {
  const dirOf = (id: string) => recordingsDir(conversationStateDir(dataDir, id));

  app.get(
    '/api/conversations/:conversation_id/recordings',
    {
      schema: {
        tags: ['Conversations'],
        summary: "List the conversation's browser recordings",
        params: ConversationIdParams,
        response: { 200: RecordingList, 404: NotFoundResponse, 422: validationResponse },
      },
    },
    async (request) => {
      const conversation = conversationOf(service, request);
      const dir = dirOf(conversation.id);
      const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => new RegExp(FILE_NAME).test(name));
      const items = [];
      for (const name of names.sort()) {
        const info = await lstat(join(dir, name)).catch(() => undefined);
        if (info?.isFile()) items.push({ name, size_bytes: info.size, modified_at: info.mtime.toISOString() });
      }
      return { items };
    },
  );

  app.get(
    '/api/conversations/:conversation_id/recordings/:file_name',
    {
      schema: {
        tags: ['Conversations'],
        summary: 'Download a browser recording (an HTML page that plays it)',
        params: RecordingParams,
        response: {
          200: { description: 'The recording.', content: { 'text/html': { schema: { type: 'string' } } } },
          404: NotFoundResponse,
          422: validationResponse,
        },
      },
    },
    async (request, reply) => {
      const conversation = conversationOf(service, request);
      const { file_name: name } = request.params as { file_name: string };
      const file = join(dirOf(conversation.id), name);
      const info = await lstat(file).catch(() => undefined);
      if (!info?.isFile()) throw new NotFoundError(`Recording not found: ${name}`);
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('content-length', info.size)
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('content-security-policy', 'sandbox allow-scripts')
        .header('x-content-type-options', 'nosniff')
        .send(createReadStream(file));
    },
  );
}
