import type { Operation } from '../../agent-server/operations.ts';
import { PROBE_OPERATIONS } from '../../server-probes.ts';
import { CONVERSATION_OPERATIONS } from './conversation-operations.ts';

/** Every route the app server client calls (add each new one here, so the contract test checks it). */
export const APP_SERVER_OPERATIONS = {
  ...PROBE_OPERATIONS,
  ...CONVERSATION_OPERATIONS,
} as const satisfies Record<string, Operation>;

export type AppServerOperationName = keyof typeof APP_SERVER_OPERATIONS;
