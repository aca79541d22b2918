import type { Repositories } from '../data/index.ts';
import { isUniqueViolation } from '../data/repositories/constraints.ts';
import { conversationIdOf, hexOf } from '../events/conversation-ids.ts';
import { type Sandbox, agentStillHas } from '../sandboxes/index.ts';

/** What Bosun reads of the ConversationInfo an agent server posts (newer agent servers may send more). */
export interface ConversationReport {
  id: string;
  title?: string | null;
  execution_status?: string;
  agent?: { llm?: { model?: string } };
  metrics?: unknown;
  /** When the agent server's conversation was last changed, by its clock: orders its reports of the model. */
  updated_at?: string;
}

/**
 * Keeps what a sandbox's agent server reports of a conversation: its status, title, model and metrics. A
 * conversation started directly on the agent server gets a row for the sandbox's owner. Answers false (nothing
 * written) when the conversation is another user's or runs in another sandbox.
 */
export async function keepReport(
  conversations: Repositories['conversations'],
  sandbox: Sandbox,
  report: ConversationReport,
): Promise<boolean> {
  const id = conversationIdOf(report.id) as string;
  const row = await conversations.getOfAnyUser(id);
  if (row && (row.user_id !== sandbox.ownerId || row.sandbox_id !== sandbox.id)) return false;
  // A conversation being deleted reports once more: nothing of it is worth keeping.
  if (report.execution_status === 'deleting') return true;
  const change = {
    ...(report.execution_status ? { execution_status: storable(report.execution_status) } : {}),
    ...(report.title ? { title: storable(report.title) } : {}),
    ...(report.metrics && typeof report.metrics === 'object' ? { metrics: JSON.stringify(report.metrics) } : {}),
  };
  const model = report.agent?.llm?.model ? { name: storable(report.agent.llm.model), at: orderOf(report) } : null;
  if (row) {
    // The model only when the report is newer than what set the row's (a switch it predates, a newer report).
    if (model) await conversations.updateWithModel(sandbox.ownerId, id, change, model);
    else await conversations.update(sandbox.ownerId, id, change);
    return true;
  }
  // A report still in flight when the app deleted the conversation must not bring it back.
  if (!(await agentStillHas(sandbox, id))) return true;
  const now = new Date().toISOString();
  try {
    await conversations.create({
      id,
      user_id: sandbox.ownerId,
      org_id: null,
      sandbox_id: sandbox.id,
      title: `Conversation ${hexOf(id)}`,
      created_at: now,
      updated_at: now,
      ...change,
      ...(model ? { llm_model: model.name, llm_model_at: model.at } : {}),
    });
  } catch (error) {
    // The start task inserted it meanwhile: report over it, as when it was there.
    if (!isUniqueViolation(error)) throw error;
    return keepReport(conversations, sandbox, report);
  }
  return true;
}

/**
 * The report's `updated_at` as the row orders it (ISO-8601 UTC, to the millisecond: a tie, never newer, leaves the
 * row as it is); null when it has none that reads as a time.
 */
export function orderOf({ updated_at }: { updated_at?: string }): string | null {
  const time = updated_at === undefined ? Number.NaN : Date.parse(updated_at);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** `text` as a text column holds it: U+0000, which PostgreSQL refuses, becomes U+FFFD (the replacement character). */
function storable(text: string): string {
  return text.replaceAll('\u0000', '\uFFFD');
}
