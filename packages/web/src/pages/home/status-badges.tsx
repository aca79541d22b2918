import type { AppConversation } from '@bosun/protocol';
import { Badge, type Tone } from '../../ui/feedback.tsx';

const EXECUTION: Record<string, { label: string; tone: Tone }> = {
  idle: { label: 'Idle', tone: 'neutral' },
  running: { label: 'Running', tone: 'info' },
  paused: { label: 'Paused', tone: 'neutral' },
  waiting_for_confirmation: { label: 'Needs confirmation', tone: 'warning' },
  finished: { label: 'Finished', tone: 'success' },
  error: { label: 'Error', tone: 'danger' },
  stuck: { label: 'Stuck', tone: 'warning' },
  deleting: { label: 'Deleting', tone: 'neutral' },
};

const SANDBOX: Record<string, { label: string; tone: Tone }> = {
  STARTING: { label: 'Sandbox starting', tone: 'info' },
  RUNNING: { label: 'Sandbox running', tone: 'success' },
  PAUSED: { label: 'Sandbox paused', tone: 'neutral' },
  ERROR: { label: 'Sandbox error', tone: 'danger' },
  MISSING: { label: 'Sandbox gone', tone: 'neutral' },
};

/** The agent's status (while its sandbox reports one) and the sandbox's, each a labelled badge. */
export function StatusBadges({ conversation }: { conversation: AppConversation }) {
  const execution = conversation.execution_status ? EXECUTION[conversation.execution_status] : undefined;
  const sandbox = SANDBOX[conversation.sandbox_status] ?? { label: conversation.sandbox_status, tone: 'neutral' };
  return (
    <>
      {execution && <Badge tone={execution.tone}>{execution.label}</Badge>}
      <Badge tone={sandbox.tone} title={conversation.sandbox_status_detail ?? undefined}>
        {sandbox.label}
      </Badge>
    </>
  );
}
