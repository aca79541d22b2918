import type { ConversationInfo, StoredEvent } from '@bosun/protocol';
import { type FollowEventsOptions, followEvents } from '../events-socket.ts';
import { type CallOptions, HttpClient, pathOf } from '../http.ts';
import type { PathWith } from '../operation-types.ts';
import { everyPage, inBatches } from '../paging.ts';
import { type TransportOptions, httpOptions } from '../server-probes.ts';
import { TypedCalls } from '../typed-calls.ts';
import type { AgentServerApi } from './agent-server-api.ts';
import type { ConversationSearchQuery, EventSearchQuery } from './types.ts';

export interface AgentServerClientOptions extends TransportOptions {
  /** The agent server's root, e.g. `http://127.0.0.1:8000`. */
  baseUrl: string;
  /** Sent as `X-Session-API-Key` (REST and WebSocket) when the server has session keys. */
  sessionApiKey?: string;
}

/** The server's limits on a batch get. */
const MAX_CONVERSATION_IDS = 100;
const MAX_EVENT_IDS = 1000;

/** A route of the agent server that answers bytes (checked against the server's paths). */
const bytesRoute = <P extends PathWith<AgentServerApi, 'get'>>(path: P) => path;

/**
 * A typed client for Bosun's agent server (OpenHands' agent server API). `get`, `post`, `put`, `patch` and
 * `delete` call any operation by its path, typed by `agent-server-api.ts` (made from the server's OpenAPI
 * document), e.g. `client.post('/api/conversations/{conversation_id}/run', { params: { conversation_id } })`;
 * the methods are what is more than one JSON call: batches, paging, files and live events.
 */
export class AgentServerClient extends TypedCalls<AgentServerApi> {
  readonly http: HttpClient;

  constructor(options: AgentServerClientOptions) {
    super();
    this.http = new HttpClient(
      httpOptions(
        options.baseUrl,
        options.sessionApiKey ? { 'X-Session-API-Key': options.sessionApiKey } : {},
        options,
      ),
    );
  }

  /** Writes `text` to the file at `path` (absolute, inside the workspace; parents created, a file replaced). */
  async uploadFile(path: string, text: string, options?: CallOptions): Promise<void> {
    const boundary = `bosun-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
    const part = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="upload"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const route: PathWith<AgentServerApi, 'post'> = '/api/file/upload';
    await this.http.send({
      ...options,
      method: 'POST',
      path: route,
      query: { path },
      content: { type: `multipart/form-data; boundary=${boundary}`, text: `${part}${text}\r\n--${boundary}--\r\n` },
    });
  }

  /**
   * The bytes of the file at `path` (absolute, inside the workspace): a `BosunApiError` 404 when there is none, a
   * `BosunTooLargeError` when larger than `maxBytes` (not read further).
   */
  downloadFile(
    path: string,
    options?: CallOptions & { maxBytes?: number },
  ): Promise<{ contentType: string; bytes: Uint8Array }> {
    return this.http.bytes({ ...options, method: 'GET', path: bytesRoute('/api/file/download'), query: { path } });
  }

  /** The conversations in the order asked, `null` for each unknown id (any number of ids). */
  async getConversations(ids: readonly string[], options?: CallOptions): Promise<(ConversationInfo | null)[]> {
    return inBatches(
      ids,
      (chunk) => this.get('/api/conversations', { ...options, query: { ids: chunk } }),
      MAX_CONVERSATION_IDS,
    );
  }
  /** Every conversation matching `query`, page after page. */
  async *iterateConversations(query: ConversationSearchQuery = {}, options?: CallOptions) {
    yield* everyPage((page_id) => this.get('/api/conversations/search', { ...options, query: { ...query, page_id } }));
  }
  /** A recording's bytes and content type. */
  downloadRecording(
    id: string,
    fileName: string,
    options?: CallOptions,
  ): Promise<{ contentType: string; bytes: Uint8Array }> {
    const route = bytesRoute('/api/conversations/{conversation_id}/recordings/{file_name}');
    return this.http.bytes({
      ...options,
      method: 'GET',
      path: pathOf(route, { conversation_id: id, file_name: fileName }),
    });
  }

  /** The events in the order asked, `null` for each id the conversation has no event for (any number of ids). */
  async getEvents(id: string, eventIds: readonly string[], options?: CallOptions): Promise<(StoredEvent | null)[]> {
    return inBatches(
      eventIds,
      (chunk) =>
        this.post('/api/conversations/{conversation_id}/events/batch', {
          ...options,
          params: { conversation_id: id },
          body: chunk,
        }),
      MAX_EVENT_IDS,
    );
  }
  /** Every event matching `query`, page after page (log order unless `sort_order` says otherwise). */
  async *iterateEvents(id: string, query: EventSearchQuery = {}, options?: CallOptions) {
    yield* everyPage((page_id) =>
      this.get('/api/conversations/{conversation_id}/events/search', {
        ...options,
        params: { conversation_id: id },
        query: { ...query, page_id },
      }),
    );
  }

  /**
   * The conversation's events as they are committed, over the WebSocket: after `afterEventId` (or from the
   * start with `fromStart`, else from now). A dropped connection is reopened with back-off and resumed after
   * the last event delivered: no gap, no duplicate. Ends when `signal` aborts or the loop breaks.
   */
  followEvents(id: string, options: FollowEventsOptions = {}): AsyncGenerator<StoredEvent, void, undefined> {
    return followEvents({
      url: `${this.http.baseUrl.replace(/^http/, 'ws')}/sockets/events/${encodeURIComponent(id)}`,
      headers: this.http.authHeaders,
      ...options,
    });
  }
}
