import type { AppConversation } from '@bosun/protocol';
import { EXECUTION_STATUS, SANDBOX_STATUS } from '../../ui/conversation-status.ts';
import { Badge } from '../../ui/feedback.tsx';

/** The agent's status (while its sandbox reports one) and the sandbox's, each a labelled badge. */
export function StatusBadges({ conversation }: { conversation: AppConversation }) {
  const execution = conversation.execution_status ? EXECUTION_STATUS[conversation.execution_status] : undefined;
  const sandbox = SANDBOX_STATUS[conversation.sandbox_status] ?? {
    label: conversation.sandbox_status,
    tone: 'neutral',
  };
  return (
    <>
      {execution && <Badge tone={execution.tone}>{execution.label}</Badge>}
      <Badge tone={sandbox.tone} title={conversation.sandbox_status_detail ?? undefined}>
        {sandbox.label}
      </Badge>
    </>
  );
}
