import { drained, parseJson, replayStart } from '@bosun/http';
import { CLOSE_AUTH_FAILED, CLOSE_INVALID_REQUEST, CLOSE_NOT_FOUND, type ReplayQuery } from '@bosun/protocol';
import type { FastifyRequest } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import type { WebSocket } from 'ws';
import type { Unsubscribe } from '../../cache/index.ts';
import type { AppConversation, Repositories } from '../../data/index.ts';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { type Credential, credentialOf } from '../../identity/credentials.ts';
import type { IdentityStores } from '../../identity/stores.ts';
import type { Sandboxes } from '../../sandboxes/index.ts';
import { conversationIdOf } from '../conversation-ids.ts';
import { type ConversationEvents, StreamRelay, agentClientOf, agentSourceOf, eventsChannel, rowsOf } from '../index.ts';

/** The agent server's close codes, so one client follows both. */
export { CLOSE_AUTH_FAILED, CLOSE_INVALID_REQUEST, CLOSE_NOT_FOUND };
const AUTH_FRAME_TIMEOUT_MS = 10_000;
const REPLAY_PAGE = 500;
/** How long the first frame waits for the running agent server's view of the conversation. */
const SNAPSHOT_TIMEOUT_MS = 2_000;

interface SocketQuery extends ReplayQuery {
  session_api_key?: string;
  api_key?: string;
  /** `true`: the sandbox's stream frames too (the agent's answer as it is written). */
  stream?: string;
}

/** Past this much unsent on a socket, stream frames are dropped (never events). */
const STREAM_BUFFER_LIMIT = 256 * 1024;

export interface EventSocketDeps {
  identity: Pick<IdentityStores, 'apiKeys' | 'sessions'>;
  conversations: Pick<Repositories['conversations'], 'get'>;
  sandboxes: Sandboxes;
  events: ConversationEvents;
}

type Row = { seq: number; json: string };

/**
 * `/sockets/events/{conversation_id}` on the app, with the agent server's contract: a `full_state` snapshot
 * first, then (with `resend_mode=all` or `after_event_id=ID`) the stored events the client has not seen, then each
 * new one as it is stored, with no gap and no duplicate. The events come from the app's store and its pub/sub,
 * so a conversation whose sandbox is paused or gone can be followed too. With `stream=true`, the stream frames
 * of its sandbox's agent server too (relayed live, never stored: see `StreamRelay`).
 */
export function eventSocketRoutes(deps: EventSocketDeps): ApiRoutes {
  return (app) => {
    const relay = new StreamRelay(deps);
    app.addHook('onClose', async () => relay.close());
    app.get('/sockets/events/:conversation_id', { websocket: true, schema: { hide: true } }, (socket, request) => {
      authenticate(socket, request, deps.identity, async (userId) => {
        const { conversation_id: rawId } = request.params as { conversation_id: string };
        const id = conversationIdOf(rawId);
        const conversation = id === undefined ? undefined : await deps.conversations.get(userId, id);
        if (!conversation) return socket.close(CLOSE_NOT_FOUND, 'Conversation not found');
        const query = request.query as SocketQuery;
        if (query.stream !== undefined && query.stream !== 'true' && query.stream !== 'false') {
          return socket.close(CLOSE_INVALID_REQUEST, 'stream must be true or false');
        }
        const onError = (error: Error) => request.log.warn({ err: error }, 'event socket failed');
        await follow(socket, conversation, query, deps, onError);
        if (query.stream === 'true' && socket.readyState === socket.OPEN) relayStream(socket, conversation, relay);
      }).catch((error: Error) => {
        request.log.warn({ err: error }, 'event socket failed');
        if (socket.readyState === socket.OPEN) socket.close(1011, 'Internal error');
      });
    });
  };
}

/**
 * Who the client is: an API key in the query (`session_api_key`, `api_key`: browsers cannot set headers on a
 * WebSocket) or in the API's headers, a session cookie, else a first frame `{"type":"auth","session_api_key"}`
 * within 10 s. A wrong or missing credential closes the socket with 4001.
 */
async function authenticate(
  socket: WebSocket,
  request: FastifyRequest,
  identity: EventSocketDeps['identity'],
  start: (userId: string) => Promise<void>,
): Promise<void> {
  const query = request.query as SocketQuery;
  const inQuery = query.session_api_key ?? query.api_key;
  const credential: Credential | undefined =
    inQuery !== undefined ? { kind: 'api_key', secret: inQuery } : credentialOf(request.headers);
  if (credential) {
    const userId = await userOf(identity, credential);
    return userId ? start(userId) : socket.close(CLOSE_AUTH_FAILED, 'Authentication failed');
  }
  const frame = await firstFrame(socket);
  const { type, session_api_key: key } = (frame ?? {}) as { type?: unknown; session_api_key?: unknown };
  const userId =
    type === 'auth' && typeof key === 'string' ? await userOf(identity, { kind: 'api_key', secret: key }) : undefined;
  return userId ? start(userId) : socket.close(CLOSE_AUTH_FAILED, 'Authentication failed');
}

async function userOf(identity: EventSocketDeps['identity'], credential: Credential): Promise<string | undefined> {
  if (credential.kind === 'api_key') return (await identity.apiKeys.authenticate(credential.secret))?.userId;
  return (await identity.sessions.sessionUser(credential.secret))?.userId;
}

function firstFrame(socket: WebSocket): Promise<unknown> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), AUTH_FRAME_TIMEOUT_MS);
    socket.once('message', (data) => {
      clearTimeout(timer);
      resolve(parseJson(data.toString()));
    });
    socket.once('close', () => resolve(undefined));
  });
}

async function follow(
  socket: WebSocket,
  conversation: AppConversation,
  query: SocketQuery,
  deps: EventSocketDeps,
  onError: (error: Error) => void,
): Promise<void> {
  const { repository, cache } = deps.events;
  const { user_id: userId, id } = conversation;
  const cursor = await replayStart(socket, query, (eventId) => repository.seqOf(userId, id, eventId), transientEvent);
  if (cursor === 'closed') return;
  socket.on('message', (data) => {
    const frame = parseJson(data.toString()) as { type?: unknown } | undefined;
    if (frame?.type === 'auth') return;
    socket.send(
      transientEvent({
        kind: 'ConversationErrorEvent',
        code: 'NotSupported',
        detail: "This socket relays the conversation's events only: send messages through the REST API",
      }),
    );
  });

  // Deliveries run one after another: the replay first, then each published batch.
  let last = 0;
  let chain: Promise<void> = Promise.resolve();
  const enqueue = (task: () => Promise<void>) => {
    chain = chain.then(task).catch((error: Error) => {
      onError(error);
      socket.close(1011, 'Internal error');
    });
  };
  const send = (rows: readonly Row[]) => {
    for (const row of rows) {
      if (row.seq !== last + 1) continue;
      socket.send(row.json);
      last = row.seq;
    }
  };
  /** Everything stored after `last`, from the store (the replay, or a batch whose predecessor was not seen). */
  const readStore = async () => {
    for (;;) {
      const page = await repository.page(userId, id, { afterSeq: last, descending: false, limit: REPLAY_PAGE });
      send(page);
      if (page.length < REPLAY_PAGE || socket.readyState !== socket.OPEN) return;
      await drained(socket);
    }
  };
  let gate: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    gate = resolve;
  });
  enqueue(() => opened);
  // Subscribed before the store is read: an event stored meanwhile is in the store or in a message (or both).
  const unsubscribe: Unsubscribe = await cache.subscribe(eventsChannel(id), (message) =>
    enqueue(async () => {
      const rows = rowsOf(message).filter((row) => row.seq > last);
      if (rows[0] && rows[0].seq !== last + 1) await readStore();
      send(rows);
    }),
  );
  socket.on('close', () => void unsubscribe().catch(() => {}));
  if (socket.readyState !== socket.OPEN) return void (await unsubscribe());
  last = (await repository.last(id))?.seq ?? 0;
  const eventCount = last;
  if (cursor !== undefined) last = cursor;
  socket.send(
    transientEvent({
      kind: 'ConversationStateUpdateEvent',
      key: 'full_state',
      value: await snapshotOf(conversation, eventCount, deps.sandboxes),
    }),
  );
  enqueue(readStore);
  gate();
}

/** Sends the conversation's stream frames while the socket is open and keeps up (a slow one loses only those). */
function relayStream(socket: WebSocket, conversation: AppConversation, relay: StreamRelay): void {
  const stop = relay.listen(conversation, (frame) => {
    if (socket.readyState === socket.OPEN && socket.bufferedAmount < STREAM_BUFFER_LIMIT) socket.send(frame);
  });
  socket.on('close', stop);
}

/**
 * The conversation as its running agent server sees it, with `event_count` the app's (what the client counts on
 * when it reconnects); while the sandbox does not run, only what the app knows.
 */
async function snapshotOf(
  conversation: AppConversation,
  eventCount: number,
  sandboxes: Sandboxes,
): Promise<Record<string, unknown>> {
  const known = { id: conversation.id, sandbox_id: conversation.sandbox_id, title: conversation.title };
  const sandbox = conversation.sandbox_id
    ? await sandboxes.get(conversation.user_id, conversation.sandbox_id)
    : undefined;
  const source = sandbox && agentSourceOf(sandbox);
  const live = source
    ? await agentClientOf(source)
        .get('/api/conversations/{conversation_id}', {
          timeoutMs: SNAPSHOT_TIMEOUT_MS,
          params: { conversation_id: conversation.id },
        })
        .catch(() => undefined)
    : undefined;
  return { ...known, ...live, event_count: eventCount };
}

/** An event sent on the socket only (never stored): the snapshot, or an error about the request. */
function transientEvent(event: Record<string, unknown>): string {
  return JSON.stringify({ id: uuidv7(), timestamp: new Date().toISOString(), source: 'environment', ...event });
}
