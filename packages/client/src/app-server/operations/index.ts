import type { Operation } from '../../agent-server/operations.ts';
import { PROBE_OPERATIONS } from '../../server-probes.ts';
import { ACCOUNT_OPERATIONS } from './account-operations.ts';
import { CATALOG_OPERATIONS } from './catalog-operations.ts';
import { CONVERSATION_OPERATIONS } from './conversation-operations.ts';
import { GIT_BROWSE_OPERATIONS } from './git-browse-operations.ts';
import { LLM_PROFILE_OPERATIONS } from './llm-profile-operations.ts';
import { ORGANIZATION_OPERATIONS } from './organization-operations.ts';

/** Every route the app server client calls (add each new one here, so the contract test checks it). */
export const APP_SERVER_OPERATIONS = {
  ...PROBE_OPERATIONS,
  ...ACCOUNT_OPERATIONS,
  ...ORGANIZATION_OPERATIONS,
  ...CONVERSATION_OPERATIONS,
  ...CATALOG_OPERATIONS,
  ...LLM_PROFILE_OPERATIONS,
  ...GIT_BROWSE_OPERATIONS,
} as const satisfies Record<string, Operation>;

export type AppServerOperationName = keyof typeof APP_SERVER_OPERATIONS;
