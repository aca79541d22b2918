import type { Tone } from './feedback.tsx';

/** The agent's execution status, for a person: one label and tone wherever a conversation shows (its page, the list). */
export const EXECUTION_STATUS: Record<string, { label: string; tone: Tone }> = {
  idle: { label: 'Idle', tone: 'neutral' },
  running: { label: 'Running', tone: 'info' },
  paused: { label: 'Paused', tone: 'warning' },
  waiting_for_confirmation: { label: 'Waiting for approval', tone: 'warning' },
  finished: { label: 'Finished', tone: 'success' },
  error: { label: 'Error', tone: 'danger' },
  stuck: { label: 'Stuck', tone: 'danger' },
  deleting: { label: 'Deleting', tone: 'neutral' },
};

/** The sandbox's status, for a person. */
export const SANDBOX_STATUS: Record<string, { label: string; tone: Tone }> = {
  STARTING: { label: 'Sandbox starting', tone: 'info' },
  RUNNING: { label: 'Sandbox running', tone: 'success' },
  PAUSED: { label: 'Sandbox paused', tone: 'warning' },
  ERROR: { label: 'Sandbox failed', tone: 'danger' },
  MISSING: { label: 'Sandbox gone', tone: 'danger' },
};
