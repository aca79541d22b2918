import { drained, nestsDeeperThan, parseJson, replayStart, tooDeep } from '@bosun/http';
import {
  CLOSE_AUTH_FAILED,
  CLOSE_INVALID_REQUEST,
  CLOSE_NOT_FOUND,
  type ReplayQuery,
  SendMessageRequest,
  safeParse,
} from '@bosun/protocol';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { answerStreamOf } from '../../conversations/answer-stream.ts';
import type { Conversation } from '../../conversations/conversation.ts';
import { newEventId } from '../../conversations/event-id.ts';
import { conversationInfo } from '../../conversations/info.ts';
import { now } from '../../conversations/new-event.ts';
import type { EventRow } from '../../conversations/repository.ts';
import type { AgentRunner } from '../../conversations/runner.ts';
import { sendUserMessage } from '../../conversations/send-message.ts';
import type { ConversationService } from '../../conversations/service.ts';
import { authenticateSocket, isAuthFrame } from '../socket-auth.ts';

export { CLOSE_AUTH_FAILED, CLOSE_INVALID_REQUEST, CLOSE_NOT_FOUND };
const RESEND_PAGE = 500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface SocketQuery extends ReplayQuery {
  session_api_key?: string;
  /** `true`: stream frames too (the agent's answer as it is written), see `answer-stream.ts`. */
  stream?: string;
}

/** Past this much unsent on a socket, stream frames are dropped (never events): a slow reader loses only those. */
const STREAM_BUFFER_LIMIT = 256 * 1024;

/** An event sent on the socket only (never persisted): a snapshot or an error about a client frame. */
function transientEvent(event: Record<string, unknown>): string {
  return JSON.stringify({ id: newEventId(), timestamp: now(), source: 'environment', ...event });
}

/**
 * `/sockets/events/{conversation_id}`: every frame is an Event. On connect the client gets a `full_state`
 * snapshot, then (with `resend_mode=all` or `after_event_id=ID`) the stored events it has not seen, then every
 * new event as it is committed, with no gap and no duplicate. With `stream=true`, once it is live, stream frames
 * (`type: "stream"`, never events) too. Frames the client sends are user messages.
 */
export function socketRoutes(
  app: FastifyInstance,
  deps: { service: ConversationService; runner: AgentRunner; sessionApiKeys: string[] },
): void {
  app.get('/sockets/events/:conversation_id', { websocket: true, schema: { hide: true } }, (socket, request) => {
    const { conversation_id: id } = request.params as { conversation_id: string };
    const query = request.query as SocketQuery;
    const start = () => {
      if (query.stream !== undefined && query.stream !== 'true' && query.stream !== 'false') {
        return socket.close(CLOSE_INVALID_REQUEST, 'stream must be true or false');
      }
      const conversation = UUID.test(id) ? deps.service.get(id) : undefined;
      if (!conversation) return socket.close(CLOSE_NOT_FOUND, 'Conversation not found');
      follow(socket, conversation, query, deps).catch((error: Error) => {
        request.log.warn({ err: error }, 'event socket failed');
        socket.close(1011, 'Internal error');
      });
    };
    authenticateSocket(socket, request, deps.sessionApiKeys, start);
  });
}

async function follow(
  socket: WebSocket,
  conversation: Conversation,
  query: SocketQuery,
  deps: { service: ConversationService; runner: AgentRunner },
): Promise<void> {
  const { events } = deps.service;
  const cursor = await replayStart(socket, query, (eventId) => events.seqOf(conversation.id, eventId), transientEvent);
  if (cursor === 'closed') return;

  socket.send(
    transientEvent({ kind: 'ConversationStateUpdateEvent', key: 'full_state', value: conversationInfo(conversation) }),
  );

  // Frames the client sends are handled from now on, also while the stored events are replayed.
  socket.on('message', (data) => receiveFrame(socket, conversation, data.toString(), deps.runner));

  let last = cursor ?? conversation.lastSeq;
  const deliver = (events: readonly EventRow[]) => {
    for (const event of events) {
      if (event.seq <= last) continue;
      socket.send(event.json);
      last = event.seq;
    }
  };
  // Catch up page by page; the last page is read and the subscription made in the same tick, so an event
  // committed meanwhile is either in that page or delivered live.
  let unsubscribe: (() => void) | undefined;
  while (!unsubscribe) {
    const page =
      cursor === undefined
        ? []
        : events.page(conversation.id, { afterSeq: last, descending: false, limit: RESEND_PAGE });
    deliver(page);
    if (page.length < RESEND_PAGE) unsubscribe = conversation.subscribe(deliver);
    else await drained(socket);
    if (socket.readyState !== socket.OPEN) break;
  }
  const unlisten = query.stream === 'true' ? answerStreamOf(conversation).listen(streamSender(socket)) : undefined;
  const stop = () => {
    unsubscribe?.();
    unlisten?.();
  };
  socket.on('close', stop);
  if (socket.readyState !== socket.OPEN) stop();
}

/** Sends stream frames while the socket keeps up; a frame that would queue past the limit is dropped. */
function streamSender(socket: WebSocket): (frame: string) => void {
  return (frame) => {
    if (socket.readyState === socket.OPEN && socket.bufferedAmount < STREAM_BUFFER_LIMIT) socket.send(frame);
  };
}

/** A frame from the client: a user message (which starts a run), an auth frame to ignore, or an error. */
function receiveFrame(socket: WebSocket, conversation: Conversation, text: string, runner: AgentRunner): void {
  const frame = parseJson(text);
  if (isAuthFrame(frame)) return;
  const candidate = frame && typeof frame === 'object' && !Array.isArray(frame) ? { run: true, ...frame } : frame;
  const parsed = nestsDeeperThan(frame)
    ? ({ ok: false, errors: [tooDeep([])] } as const)
    : safeParse(SendMessageRequest, candidate);
  if (!parsed.ok) {
    socket.send(
      transientEvent({
        kind: 'ConversationErrorEvent',
        code: 'ValidationError',
        detail: JSON.stringify({ detail: parsed.errors }),
      }),
    );
    return;
  }
  sendUserMessage(conversation, parsed.value, runner).catch((error: Error) => {
    socket.send(transientEvent({ kind: 'ConversationErrorEvent', code: error.name, detail: error.message }));
  });
}
