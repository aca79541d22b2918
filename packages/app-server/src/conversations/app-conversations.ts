import { BosunApiError } from '@bosun/client';
import type {
  AppConversation,
  AppConversationUpdateRequest,
  AppSendMessageRequest,
  AppSendMessageResponse,
} from '@bosun/protocol';
import type {
  AppConversationChange,
  ConversationFilters,
  AppConversation as ConversationRow,
  Page,
} from '../data/index.ts';
import { agentOf } from '../sandboxes/index.ts';
import { conversationInSandbox, runningAgentOf, sandboxGone } from './conversation-sandbox.ts';
import { conversationOf } from './conversation-view.ts';
import type { ConversationDeps } from './deps.ts';
import { PendingMessages } from './pending-messages.ts';
import { whyNot } from './start-tasks.ts';

/** The sandbox or its agent server failed to do what was asked (the routes answer 502 with the message). */
export class AgentServerFailure extends Error {
  override name = 'AgentServerFailure';
}

/**
 * The application's conversations of a user: each a row of the app's database, its agent (under the same id) in
 * one of the user's sandboxes. Another user's conversation is as unknown as one that does not exist (404).
 */
export class AppConversations {
  constructor(private readonly deps: Pick<ConversationDeps, 'repositories' | 'sandboxes' | 'log'>) {}

  /** In the order of `ids`, null for each unknown or another user's. */
  async getMany(userId: string, ids: readonly string[]): Promise<(AppConversation | null)[]> {
    const rows = new Map((await this.deps.repositories.conversations.getMany(userId, ids)).map((row) => [row.id, row]));
    const views = new Map((await this.views(userId, [...rows.values()])).map((view) => [view.id, view]));
    return ids.map((id) => views.get(id) ?? null);
  }

  async search(
    userId: string,
    filters: ConversationFilters,
    page: { limit: number; pageId?: string },
  ): Promise<Page<AppConversation>> {
    const found = await this.deps.repositories.conversations.search(userId, filters, page);
    return { items: await this.views(userId, found.items), next_page_id: found.next_page_id };
  }

  count(userId: string, filters: ConversationFilters): Promise<number> {
    return this.deps.repositories.conversations.count(userId, filters);
  }

  /** Changes the conversation; a new title also goes to its agent server while the sandbox runs. */
  async update(userId: string, id: string, update: AppConversationUpdateRequest): Promise<AppConversation> {
    const { row, sandbox } = await conversationInSandbox(this.deps, userId, id);
    const change: AppConversationChange = {};
    for (const field of ['title', 'selected_repository', 'selected_branch', 'git_provider'] as const) {
      if (update[field] !== undefined) change[field] = update[field];
    }
    if (typeof update.public === 'boolean') change.is_public = update.public ? 1 : 0;
    const updated = (await this.deps.repositories.conversations.update(userId, id, change)) ?? row;
    const agent = agentOf(sandbox);
    if (agent && update.title) {
      await agent
        .patch('/api/conversations/{conversation_id}', {
          params: { conversation_id: id },
          body: { title: update.title },
        })
        .catch((error) => {
          this.deps.log.warn({ conversationId: id, why: whyNot(error) }, 'the agent server kept its title');
        });
    }
    return conversationOf(updated, sandbox);
  }

  /**
   * Deletes the conversation on its agent server (while the sandbox runs) and its row, then the sandbox when no
   * other conversation of the user runs in it.
   */
  async delete(userId: string, id: string): Promise<void> {
    const { sandbox } = await conversationInSandbox(this.deps, userId, id);
    const agent = agentOf(sandbox);
    if (agent) {
      await agent.delete('/api/conversations/{conversation_id}', { params: { conversation_id: id } }).catch((error) => {
        if (error instanceof BosunApiError && error.status === 404) return;
        this.deps.log.warn({ conversationId: id, why: whyNot(error) }, 'the agent server kept the conversation');
      });
    }
    await this.deps.repositories.conversations.delete(userId, id);
    if (sandbox && (await this.deps.repositories.conversations.usingSandbox(userId, sandbox.id)) === 0) {
      await this.deps.sandboxes.delete(userId, sandbox.id);
    }
  }

  /** Sends the message to the conversation's agent: 409 while its sandbox does not run, 410 once it is gone. */
  async sendMessage(userId: string, id: string, message: AppSendMessageRequest): Promise<AppSendMessageResponse> {
    const { sandbox } = await conversationInSandbox(this.deps, userId, id);
    const agent = runningAgentOf(id, sandbox);
    try {
      await agent.post('/api/conversations/{conversation_id}/events', {
        params: { conversation_id: id },
        body: { role: 'user', content: message.content, run: message.run },
      });
    } catch (error) {
      throw new AgentServerFailure(`The agent server did not take the message: ${whyNot(error)}`);
    }
    return { success: true, sandbox_status: 'RUNNING', message: null };
  }

  /**
   * Pauses the conversation: its sandbox when it runs only this conversation; in a sandbox other conversations
   * of the user share, only this conversation's agent (the sandbox keeps running for the others).
   */
  async pause(userId: string, id: string): Promise<void> {
    const { sandbox } = await conversationInSandbox(this.deps, userId, id);
    if (!sandbox || sandbox.status === 'MISSING') throw sandboxGone();
    const shared = (await this.deps.repositories.conversations.usingSandbox(userId, sandbox.id)) > 1;
    if (!shared) {
      await this.deps.sandboxes.pause(userId, sandbox.id);
      return;
    }
    const agent = agentOf(sandbox);
    if (!agent) return;
    await agent
      .post('/api/conversations/{conversation_id}/pause', { params: { conversation_id: id } })
      .catch((error) => {
        throw new AgentServerFailure(`The agent server did not pause the conversation: ${whyNot(error)}`);
      });
  }

  /**
   * Resumes the conversation's sandbox (over its workspace, with a new key) when it does not run; then the
   * messages that waited for it are delivered.
   */
  async resume(userId: string, id: string): Promise<void> {
    const { sandbox } = await conversationInSandbox(this.deps, userId, id);
    if (!sandbox || sandbox.status === 'MISSING') throw sandboxGone();
    if (sandbox.status !== 'RUNNING') {
      const resumed = await this.deps.sandboxes.resume(userId, sandbox.id);
      if (resumed?.status === 'MISSING') throw sandboxGone();
      if (resumed?.status !== 'RUNNING') {
        throw new AgentServerFailure(`The sandbox did not start: ${resumed?.statusDetail ?? 'no reason given'}`);
      }
    }
    await new PendingMessages(this.deps).deliver(id);
  }

  private async views(userId: string, rows: ConversationRow[]): Promise<AppConversation[]> {
    const sandboxIds = [...new Set(rows.flatMap((row) => (row.sandbox_id === null ? [] : [row.sandbox_id])))];
    const found = await this.deps.sandboxes.getMany(userId, sandboxIds);
    const sandboxes = new Map(sandboxIds.map((sandboxId, index) => [sandboxId, found[index]]));
    return rows.map((row) => conversationOf(row, row.sandbox_id === null ? undefined : sandboxes.get(row.sandbox_id)));
  }
}
