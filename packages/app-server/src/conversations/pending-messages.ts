import { randomUUID } from 'node:crypto';
import type { AgentServerClient } from '@bosun/client';
import { ConflictError, HttpError, NotFoundError } from '@bosun/http';
import {
  MAX_PENDING_MESSAGES,
  type MessageContent,
  type PendingMessageRequest,
  type PendingMessageResponse,
} from '@bosun/protocol';
import type { PendingTarget, Repositories } from '../data/index.ts';
import { conversationIdOf } from '../events/conversation-ids.ts';
import { type Sandboxes, agentOf } from '../sandboxes/index.ts';
import type { ConversationLog } from './deps.ts';

const TASK_PREFIX = 'task-';
const NOT_FOUND = 'Conversation not found';

export interface PendingMessageDeps {
  repositories: Pick<Repositories, 'pendingMessages' | 'startTasks' | 'conversations'>;
  sandboxes: Sandboxes;
  log: ConversationLog;
}

/** How far the agent server's clock may be behind the app's when a post is looked for among its events. */
const CLOCK_SKEW_MS = 60_000;

/**
 * How long a post claimed by another replica (or a run of the app that stopped) is left to it: longer than the
 * agent client's timeout, so a post still under way is never made twice.
 */
const POST_LEASE_MS = 45_000;

/** Messages whose post failed in this process (no post of theirs is under way: retried without waiting). */
const failedHere = new Set<string>();

/**
 * One delivery at a time per conversation in this process, shared by every `PendingMessages`: the start runner's
 * delivery after READY and a message queued at that moment never overtake each other.
 */
const deliveries = new Map<string, Promise<void>>();

/**
 * Messages for a conversation that may not run yet: stored first (a message acknowledged is never lost), then
 * delivered to its agent in order, each once, when the conversation runs: after its start's READY, at once when it
 * runs already, else when it is resumed, at the app's next start or with the next message queued for it.
 */
export class PendingMessages {
  constructor(private readonly deps: PendingMessageDeps) {}

  /** Queues the message for `pathId` (`task-{id}` or a conversation id) of the user; 404 when not theirs. */
  async queue(userId: string, pathId: string, message: PendingMessageRequest): Promise<PendingMessageResponse> {
    const { target, conversationId } = await this.targetOf(userId, pathId);
    const { pendingMessages } = this.deps.repositories;
    if ((await pendingMessages.waiting(target)) >= MAX_PENDING_MESSAGES) {
      throw new HttpError(429, `${MAX_PENDING_MESSAGES} messages wait for this conversation already: wait for it`);
    }
    const content: MessageContent[] = message.content;
    const { record, waiting } = await pendingMessages.add({
      id: randomUUID(),
      userId,
      target,
      role: message.role,
      content: JSON.stringify(content),
    });
    if (conversationId) await this.deliver(conversationId);
    else if (target.taskId !== null) await this.readySince(userId, target.taskId);
    const left = await pendingMessages.waiting(target);
    return { id: record.id, queued: left > 0, position: left > 0 ? waiting : 0 };
  }

  /** After the task's READY: its messages go to the conversation it started. */
  async afterReady(taskId: string, conversationId: string): Promise<void> {
    await this.deps.repositories.pendingMessages.bindTask(taskId, conversationId);
    await this.deliver(conversationId);
  }

  /** A task READY since its message was stored (after the runner delivered what waited): the message goes now. */
  private async readySince(userId: string, taskId: string): Promise<void> {
    const task = await this.deps.repositories.startTasks.get(userId, taskId);
    if (task?.status === 'READY' && task.app_conversation_id) await this.afterReady(taskId, task.app_conversation_id);
  }

  /** At the app's start: whatever waits for a conversation that runs is delivered (a READY task's included). */
  async deliverWaiting(): Promise<void> {
    const { pendingMessages, startTasks } = this.deps.repositories;
    const { conversationIds, taskIds } = await pendingMessages.targetsWaiting();
    for (const taskId of taskIds) {
      const task = await startTasks.getOfAnyUser(taskId);
      if (task?.status === 'READY' && task.app_conversation_id) {
        await pendingMessages.bindTask(taskId, task.app_conversation_id);
        conversationIds.push(task.app_conversation_id);
      }
    }
    for (const id of new Set(conversationIds)) await this.deliver(id);
  }

  /** Delivers the conversation's waiting messages in order, stopping at the first its agent does not take. */
  deliver(conversationId: string): Promise<void> {
    const previous = deliveries.get(conversationId) ?? Promise.resolve();
    const next = previous.then(() => this.deliverNow(conversationId));
    const settled = next.catch((error) =>
      this.deps.log.warn(
        { conversationId, why: error instanceof Error ? error.message : String(error) },
        'pending messages: not delivered (they wait)',
      ),
    );
    deliveries.set(conversationId, settled);
    void settled.then(() => {
      if (deliveries.get(conversationId) === settled) deliveries.delete(conversationId);
    });
    return settled;
  }

  /**
   * Posts the oldest waiting message, then the next, re-reading each time (a message queued meanwhile is taken
   * too). Each is claimed in the database first: another replica delivering the conversation makes this one stop
   * rather than post the same message or overtake it.
   */
  private async deliverNow(conversationId: string): Promise<void> {
    const { conversations, pendingMessages } = this.deps.repositories;
    let agent: AgentServerClient | undefined;
    for (;;) {
      const [message] = await pendingMessages.undelivered(conversationId, 1);
      if (!message) return;
      if (!agent) {
        const row = await conversations.getOfAnyUser(conversationId);
        if (!row?.sandbox_id) return;
        agent = agentOf(await this.deps.sandboxes.get(row.user_id, row.sandbox_id));
        if (!agent) return;
      }
      const previous = message.attempted_at;
      if (previous && !failedHere.has(message.id) && Date.now() - Date.parse(previous) < POST_LEASE_MS) return;
      if (!(await pendingMessages.claim(message.id, previous))) return;
      const content = JSON.parse(message.content) as MessageContent[];
      // An earlier post may have reached the agent server without the app learning so (a crash, a lost answer).
      if (previous === null || !(await alreadyTaken(agent, conversationId, content, previous))) {
        try {
          await agent.post('/api/conversations/{conversation_id}/events', {
            params: { conversation_id: conversationId },
            body: { role: 'user', content, run: true },
          });
        } catch (error) {
          failedHere.add(message.id);
          throw error;
        }
      }
      failedHere.delete(message.id);
      await pendingMessages.markDelivered(message.id);
    }
  }

  /** Where a message for `pathId` waits, and the conversation to deliver to at once (when there is one). */
  private async targetOf(
    userId: string,
    pathId: string,
  ): Promise<{ target: PendingTarget; conversationId: string | null }> {
    const { startTasks, conversations } = this.deps.repositories;
    if (pathId.startsWith(TASK_PREFIX)) {
      const taskId = conversationIdOf(pathId.slice(TASK_PREFIX.length));
      const task = taskId ? await startTasks.get(userId, taskId) : undefined;
      if (!task) throw new NotFoundError('Start task not found');
      if (task.status === 'ERROR') {
        throw new ConflictError(`The start task ended in ERROR, its conversation will not run: ${task.detail ?? ''}`);
      }
      if (task.status === 'READY' && task.app_conversation_id) {
        return this.targetOf(userId, task.app_conversation_id);
      }
      return { target: { taskId: task.id, conversationId: null }, conversationId: null };
    }
    const id = conversationIdOf(pathId);
    if (!id || !(await conversations.get(userId, id))) throw new NotFoundError(NOT_FOUND);
    return { target: { taskId: null, conversationId: id }, conversationId: id };
  }
}

/** Whether the conversation has a user message with `content` since about `attemptedAt`. */
async function alreadyTaken(
  agent: AgentServerClient,
  conversationId: string,
  content: MessageContent[],
  attemptedAt: string,
): Promise<boolean> {
  const since = new Date(Date.parse(attemptedAt) - CLOCK_SKEW_MS).toISOString();
  const wanted = canonical(content);
  for await (const event of agent.iterateEvents(conversationId, {
    kind: 'MessageEvent',
    source: 'user',
    timestamp__gte: since,
  })) {
    const message = (event as { llm_message?: { content?: unknown } }).llm_message;
    if (canonical(message?.content) === wanted) return true;
  }
  return false;
}

/** JSON with object keys sorted: the same for the same value, whatever order its keys were written in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b)))
      : item,
  );
}
