import type {
  AppConversation,
  AppConversationFilterQuery,
  AppConversationPage,
  AppConversationStartRequest,
  AppConversationStartTask,
  AppConversationStartTaskPage,
  AppConversationStartTaskSortOrder,
  AppConversationUpdateRequest,
  AppSendMessageResponse,
  LaunchDecoded,
  LaunchLink,
  LaunchLinkRequest,
  MessageContent,
  PendingMessageRequest,
  PendingMessageResponse,
  StartTaskFilterQuery,
  SuccessResponse,
  WebClientConfig,
} from '@bosun/protocol';
import type { WireInput } from '../agent-server/wire-input.ts';
import type { CallOptions } from '../http.ts';
import { inBatches } from './batches.ts';
import { AppServerCalls } from './calls.ts';
import type { PageQuery } from './page-query.ts';

export type AppConversationFilters = AppConversationFilterQuery;
export type StartTaskFilters = StartTaskFilterQuery;

/** A message to a conversation: `run` (default true) runs the agent after it. */
export interface AppMessageInput {
  content: MessageContent[];
  run?: boolean;
}

const FINISHED = new Set(['READY', 'ERROR']);

/**
 * The app server's conversations, typed with the protocol's shapes: starting one (a start task, then READY or
 * ERROR), reading, changing and deleting them, messages, pause and resume. `AppServerClient` has them all.
 */
export abstract class AppServerConversations extends AppServerCalls {
  /** Starts a conversation: answers its start task at once (WORKING); read it again for its progress. */
  startConversation(request: AppConversationStartRequest, options?: CallOptions): Promise<AppConversationStartTask> {
    return this.call('startConversation', { ...options, body: request });
  }
  /** Starts a conversation and answers its start task at each step, once the start is READY or ERROR. */
  streamStartConversation(
    request: AppConversationStartRequest,
    options?: CallOptions,
  ): Promise<AppConversationStartTask[]> {
    return this.call('streamStartConversation', { ...options, body: request });
  }
  /** In the order of `ids`, null for each unknown or not the caller's. */
  getStartTasks(ids: readonly string[], options?: CallOptions): Promise<(AppConversationStartTask | null)[]> {
    return inBatches(ids, (batch) => this.call('getStartTasks', { ...options, query: { ids: batch } }));
  }
  searchStartTasks(
    query: StartTaskFilters & PageQuery & { sort_order?: AppConversationStartTaskSortOrder } = {},
    options?: CallOptions,
  ): Promise<AppConversationStartTaskPage> {
    return this.call('searchStartTasks', { ...options, query: { ...query } });
  }
  countStartTasks(query: StartTaskFilters = {}, options?: CallOptions): Promise<number> {
    return this.call('countStartTasks', { ...options, query: { ...query } });
  }
  /** Reads the task until it is READY or ERROR, every `intervalMs` (default 250). */
  async waitForStartTask(id: string, options: CallOptions & { intervalMs?: number } = {}) {
    for (;;) {
      const [task] = await this.getStartTasks([id], options);
      if (!task) throw new Error(`start task ${id} not found`);
      if (FINISHED.has(task.status)) return task;
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 250));
    }
  }

  getAppConversations(ids: readonly string[], options?: CallOptions): Promise<(AppConversation | null)[]> {
    return inBatches(ids, (batch) => this.call('getAppConversations', { ...options, query: { ids: batch } }));
  }
  searchAppConversations(query: AppConversationFilters & PageQuery = {}, options?: CallOptions) {
    return this.call<AppConversationPage>('searchAppConversations', { ...options, query: { ...query } });
  }
  countAppConversations(query: AppConversationFilters = {}, options?: CallOptions): Promise<number> {
    return this.call('countAppConversations', { ...options, query: { ...query } });
  }
  updateAppConversation(id: string, update: AppConversationUpdateRequest, options?: CallOptions) {
    return this.call<AppConversation>('updateAppConversation', {
      ...options,
      params: { conversation_id: id },
      body: update,
    });
  }
  deleteAppConversation(id: string, options?: CallOptions): Promise<SuccessResponse> {
    return this.call('deleteAppConversation', { ...options, params: { conversation_id: id } });
  }
  /** A `BosunApiError` 409 while the conversation's sandbox does not run (resume it), 410 once it is gone. */
  sendAppMessage(id: string, message: AppMessageInput, options?: CallOptions): Promise<AppSendMessageResponse> {
    return this.call('sendAppMessage', {
      ...options,
      params: { conversation_id: id },
      body: { role: 'user', ...message },
    });
  }
  pauseAppConversation(id: string, options?: CallOptions): Promise<SuccessResponse> {
    return this.call('pauseAppConversation', { ...options, params: { conversation_id: id } });
  }
  resumeAppConversation(id: string, options?: CallOptions): Promise<SuccessResponse> {
    return this.call('resumeAppConversation', { ...options, params: { conversation_id: id } });
  }
  /**
   * Queues a message for a conversation, or for a start task's conversation-to-be (`task-{taskId}`): delivered in
   * order once it runs. A `BosunApiError` 429 when 10 wait already, 409 when the start task ended in ERROR.
   */
  queuePendingMessage(
    id: string,
    message: WireInput<Pick<PendingMessageRequest, 'content'>>,
    options?: CallOptions,
  ): Promise<PendingMessageResponse> {
    return this.call('queuePendingMessage', {
      ...options,
      params: { conversation_id: id },
      body: { role: 'user', ...message },
    });
  }
  webClientConfig(options?: CallOptions): Promise<WebClientConfig> {
    return this.call('webClientConfig', options);
  }
  /** A launch link of `plugins` (and a message): 422 naming every bad reference. */
  buildLaunchLink(request: LaunchLinkRequest, options?: CallOptions): Promise<LaunchLink> {
    return this.call('buildLaunchLink', { ...options, body: request });
  }
  /** What a launch link's `plugins` parameter (and message) holds, with every problem as data. */
  decodeLaunchLink(plugins: string, message?: string, options?: CallOptions): Promise<LaunchDecoded> {
    const query = message === undefined ? { plugins } : { plugins, message };
    return this.call('decodeLaunchLink', { ...options, query });
  }
}
