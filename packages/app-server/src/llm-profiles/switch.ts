import { BosunApiError } from '@bosun/client';
import { ConflictError, NotFoundError } from '@bosun/http';
import { agentLlm } from '../conversations/agent-request.ts';
import { AgentServerFailure } from '../conversations/app-conversations.ts';
import { orderOf } from '../conversations/conversation-reports.ts';
import { conversationInSandbox, runningAgentOf } from '../conversations/conversation-sandbox.ts';
import type { ConversationDeps } from '../conversations/deps.ts';
import { whyNot } from '../conversations/start-tasks.ts';
import type { Repositories } from '../data/index.ts';
import type { LlmDefaults } from '../settings/llm-defaults.ts';
import { profileLlm } from '../settings/llm-profiles.ts';

/** What switching a conversation to a profile needs. */
export interface SwitchDeps {
  repositories: ConversationDeps['repositories'] & Pick<Repositories, 'llmProfiles'>;
  sandboxes: ConversationDeps['sandboxes'];
  llmDefaults: LlmDefaults;
}

/**
 * Switches the user's conversation to the LLM of their profile `name` through its agent server; the app's row then
 * names the new model, as of the agent server's time after the switch (reports it sent before then cannot name the
 * old one again: conversation-reports.ts). 404: no such conversation or profile of the user; 409: its sandbox does not run (or the
 * agent is running: it switches between runs); 410: its sandbox is gone; AgentServerFailure (502): the agent server
 * failed.
 */
export async function switchConversationProfile(
  deps: SwitchDeps,
  userId: string,
  conversationId: string,
  name: string,
): Promise<void> {
  const { sandbox } = await conversationInSandbox(deps, userId, conversationId);
  const profile = await deps.repositories.llmProfiles.get(userId, name);
  if (!profile) throw new NotFoundError('Profile not found');
  const agent = runningAgentOf(conversationId, sandbox);
  const llm = profileLlm(profile, deps.llmDefaults);
  const model = llm.model ?? profile.model;
  try {
    await agent.post('/api/conversations/{conversation_id}/switch_llm', {
      params: { conversation_id: conversationId },
      body: { llm: agentLlm({ ...llm, model }) },
    });
  } catch (error) {
    if (error instanceof BosunApiError && error.status === 409) throw new ConflictError(whyNot(error));
    throw new AgentServerFailure(`The agent server did not switch the LLM: ${whyNot(error)}`);
  }
  // When the agent server had the new LLM, by its clock: a report it sent before (landing later) is older.
  const at = await agent
    .get('/api/conversations/{conversation_id}', { params: { conversation_id: conversationId } })
    .then(orderOf, () => null);
  await deps.repositories.conversations.update(userId, conversationId, {
    llm_model: model,
    ...(at ? { llm_model_at: at } : {}),
  });
}
