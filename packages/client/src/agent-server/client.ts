import type {
  AgentFinalResponse,
  BashOutput,
  ConversationInfo,
  GitChange,
  GitDiff,
  HookConfig,
  SkillsResponse,
  StoredEvent,
} from '@bosun/protocol';
import { type FollowEventsOptions, followEvents } from '../events-socket.ts';
import { type CallOptions, HttpClient, type OperationCall, callOperation, pathOf } from '../http.ts';
import { ServerProbes, type TransportOptions, httpOptions } from '../server-probes.ts';
import { AGENT_SERVER_OPERATIONS, type AgentServerOperationName } from './operations.ts';
import type {
  ConfirmationPolicyInput,
  ConfirmationResponseInput,
  ConversationCountQuery,
  ConversationPage,
  ConversationSearchQuery,
  EventFilterQuery,
  EventPage,
  EventSearchQuery,
  ExecuteBashInput,
  ForkConversationInput,
  LoadPluginInput,
  ModelList,
  Recording,
  SecretsInput,
  SecurityAnalyzerInput,
  SendMessageInput,
  ServerInfo,
  ServerStatus,
  SkillsInput,
  StartConversationInput,
  SwitchLlmInput,
  UpdateConversationInput,
} from './types.ts';

export interface AgentServerClientOptions extends TransportOptions {
  /** The agent server's root, e.g. `http://127.0.0.1:8000`. */
  baseUrl: string;
  /** Sent as `X-Session-API-Key` (REST and WebSocket) when the server has session keys. */
  sessionApiKey?: string;
}

type Success = { success: boolean };

/** The server's limits on a batch get. */
const MAX_CONVERSATION_IDS = 100;
const MAX_EVENT_IDS = 1000;

/** A typed client for Bosun's agent server (OpenHands' agent server API), REST and live events. */
export class AgentServerClient extends ServerProbes {
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

  private call<T>(name: AgentServerOperationName, call?: OperationCall): Promise<T> {
    return callOperation<T>(this.http, AGENT_SERVER_OPERATIONS[name], call);
  }

  private onConversation<T>(name: AgentServerOperationName, id: string, call: OperationCall = {}): Promise<T> {
    return this.call<T>(name, { ...call, params: { conversation_id: id, ...call.params } });
  }

  serverInfo(options?: CallOptions): Promise<ServerInfo> {
    return this.call('serverInfo', options);
  }
  listTools(options?: CallOptions): Promise<string[]> {
    return this.call('listTools', options);
  }
  listModels(options?: CallOptions): Promise<ModelList> {
    return this.call('listModels', options);
  }
  /** The skills a conversation with these inputs would load, with every problem found. */
  getSkills(request: SkillsInput, options?: CallOptions): Promise<SkillsResponse> {
    return this.call('getSkills', { ...options, body: request });
  }

  /** Runs a command in the workspace (`bash -c`) and answers its last output, with the exit code. */
  executeBashCommand(request: ExecuteBashInput, options?: CallOptions): Promise<BashOutput> {
    return this.call('executeBashCommand', { ...options, body: request });
  }
  /** Writes `text` to the file at `path` (absolute, inside the workspace; parents created, a file replaced). */
  async uploadFile(path: string, text: string, options?: CallOptions): Promise<void> {
    const boundary = `bosun-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
    const part = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="upload"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const { method, path: route } = AGENT_SERVER_OPERATIONS.uploadFile;
    await this.http.send({
      ...options,
      method,
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
    const { method, path: route } = AGENT_SERVER_OPERATIONS.downloadFile;
    return this.http.bytes({ ...options, method, path: route, query: { path } });
  }
  /** The files of the repository at `path` that differ from `ref` (default HEAD), untracked ones included. */
  gitChanges(path: string, ref?: string, options?: CallOptions): Promise<GitChange[]> {
    return this.call('gitChanges', { ...options, query: { path, ref } });
  }
  /** The file at `path` as it is and at `ref` (default HEAD), or before and after `commit`. */
  gitDiff(path: string, at: { ref?: string; commit?: string } = {}, options?: CallOptions): Promise<GitDiff> {
    return this.call('gitDiff', { ...options, query: { path, ...at } });
  }
  /** The hooks of the project's `.openhands/hooks.json` (default: the workspace's); null when it has none. */
  async getHooks(projectDir?: string, options?: CallOptions): Promise<HookConfig | null> {
    const body = projectDir === undefined ? {} : { project_dir: projectDir };
    return (await this.call<{ hook_config: HookConfig | null }>('getHooks', { ...options, body })).hook_config;
  }

  /** Starts a conversation; idempotent on `conversation_id` (the existing one is returned). */
  startConversation(request: StartConversationInput, options?: CallOptions): Promise<ConversationInfo> {
    return this.call('startConversation', { ...options, body: request });
  }
  getConversation(id: string, options?: CallOptions): Promise<ConversationInfo> {
    return this.onConversation('getConversation', id, options);
  }
  /** The conversations in the order asked, `null` for each unknown id (any number of ids). */
  async getConversations(ids: readonly string[], options?: CallOptions): Promise<(ConversationInfo | null)[]> {
    const pages = await Promise.all(
      chunks(ids, MAX_CONVERSATION_IDS).map((chunk) =>
        this.call<(ConversationInfo | null)[]>('getConversations', { ...options, query: { ids: chunk } }),
      ),
    );
    return pages.flat();
  }
  searchConversations(query: ConversationSearchQuery = {}, options?: CallOptions): Promise<ConversationPage> {
    return this.call('searchConversations', { ...options, query });
  }
  /** Every conversation matching `query`, page after page. */
  async *iterateConversations(query: ConversationSearchQuery = {}, options?: CallOptions) {
    yield* paginate((page_id) => this.searchConversations({ ...query, page_id }, options));
  }
  countConversations(query: ConversationCountQuery = {}, options?: CallOptions): Promise<number> {
    return this.call('countConversations', { ...options, query });
  }
  /** Changes the title or replaces the tags. */
  updateConversation(id: string, request: UpdateConversationInput, options?: CallOptions): Promise<Success> {
    return this.onConversation('updateConversation', id, { ...options, body: request });
  }
  deleteConversation(id: string, options?: CallOptions): Promise<Success> {
    return this.onConversation('deleteConversation', id, options);
  }
  /** Starts a run (a `BosunApiError` 409 while one is in progress). */
  run(id: string, options?: CallOptions): Promise<Success> {
    return this.onConversation('run', id, options);
  }
  pause(id: string, options?: CallOptions): Promise<Success> {
    return this.onConversation('pause', id, options);
  }
  /** Cancels the LLM call and tools in flight; answers once the run has stopped. */
  interrupt(id: string, options?: CallOptions): Promise<Success> {
    return this.onConversation('interrupt', id, options);
  }
  condense(id: string, options?: CallOptions): Promise<Success> {
    return this.onConversation('condense', id, options);
  }
  fork(id: string, request: ForkConversationInput = {}, options?: CallOptions): Promise<ConversationInfo> {
    return this.onConversation('fork', id, { ...options, body: request });
  }
  switchLlm(id: string, request: SwitchLlmInput, options?: CallOptions): Promise<Success> {
    return this.onConversation('switchLlm', id, { ...options, body: request });
  }
  loadPlugin(id: string, request: LoadPluginInput, options?: CallOptions): Promise<Success> {
    return this.onConversation('loadPlugin', id, { ...options, body: request });
  }
  updateSecrets(id: string, secrets: SecretsInput, options?: CallOptions): Promise<Success> {
    return this.onConversation('updateSecrets', id, { ...options, body: { secrets } });
  }
  setConfirmationPolicy(id: string, request: ConfirmationPolicyInput, options?: CallOptions): Promise<Success> {
    return this.onConversation('setConfirmationPolicy', id, { ...options, body: request });
  }
  setSecurityAnalyzer(id: string, request: SecurityAnalyzerInput, options?: CallOptions): Promise<Success> {
    return this.onConversation('setSecurityAnalyzer', id, { ...options, body: request });
  }
  /** Accepts (runs) or rejects the actions waiting for confirmation (409 when none wait). */
  respondToConfirmation(id: string, request: ConfirmationResponseInput, options?: CallOptions): Promise<Success> {
    return this.onConversation('respondToConfirmation', id, { ...options, body: request });
  }
  agentFinalResponse(id: string, options?: CallOptions): Promise<AgentFinalResponse> {
    return this.onConversation('agentFinalResponse', id, options);
  }
  async listRecordings(id: string, options?: CallOptions): Promise<Recording[]> {
    return (await this.onConversation<{ items: Recording[] }>('listRecordings', id, options)).items;
  }
  /** A recording's bytes and content type. */
  downloadRecording(
    id: string,
    fileName: string,
    options?: CallOptions,
  ): Promise<{ contentType: string; bytes: Uint8Array }> {
    const { method, path } = AGENT_SERVER_OPERATIONS.downloadRecording;
    const params = { conversation_id: id, file_name: fileName };
    return this.http.bytes({ ...options, method, path: pathOf(path, params) });
  }

  /** Appends a user message (and starts a run when `run` is true). */
  sendMessage(id: string, message: SendMessageInput, options?: CallOptions): Promise<Success> {
    return this.onConversation('sendMessage', id, { ...options, body: message });
  }
  /** The events in the order asked, `null` for each id the conversation has no event for (any number of ids). */
  async getEvents(id: string, eventIds: readonly string[], options?: CallOptions): Promise<(StoredEvent | null)[]> {
    const pages = await Promise.all(
      chunks(eventIds, MAX_EVENT_IDS).map((chunk) =>
        this.onConversation<(StoredEvent | null)[]>('getEvents', id, { ...options, body: chunk }),
      ),
    );
    return pages.flat();
  }
  getEvent(id: string, eventId: string, options?: CallOptions): Promise<StoredEvent> {
    return this.onConversation('getEvent', id, { ...options, params: { event_id: eventId } });
  }
  searchEvents(id: string, query: EventSearchQuery = {}, options?: CallOptions): Promise<EventPage> {
    return this.onConversation('searchEvents', id, { ...options, query });
  }
  /** Every event matching `query`, page after page (log order unless `sort_order` says otherwise). */
  async *iterateEvents(id: string, query: EventSearchQuery = {}, options?: CallOptions) {
    yield* paginate((page_id) => this.searchEvents(id, { ...query, page_id }, options));
  }
  countEvents(id: string, query: EventFilterQuery = {}, options?: CallOptions): Promise<number> {
    return this.onConversation('countEvents', id, { ...options, query });
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

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

async function* paginate<T>(
  page: (pageId: string | undefined) => Promise<{ items: T[]; next_page_id: string | null }>,
) {
  let pageId: string | undefined;
  do {
    const { items, next_page_id } = await page(pageId);
    yield* items;
    pageId = next_page_id ?? undefined;
  } while (pageId !== undefined);
}
