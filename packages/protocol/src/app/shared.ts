import { type Static, Type } from '@sinclair/typebox';
import { MetricsSnapshot } from '../api/metrics.ts';
import { nullable, ref, strictObject } from '../schema/builders.ts';
import { ProviderType, timestamps } from './common.ts';

/**
 * A conversation its owner made public, as anyone may read it: OpenHands' `SharedConversation`. It leaves out what
 * only the owner may see or use: who owns it, its sandbox (id, live state, agent server's URL and session key),
 * tags and the loaded plugins and marketplaces (their sources may be private).
 */
export const SharedConversation = strictObject(
  'SharedConversation',
  'A conversation its owner shared read-only (anyone with its id may read it and its events).',
  {
    id: Type.String({ format: 'uuid' }),
    created_by_user_id: Type.Null({ description: 'Always null: who owns it is not told to readers.' }),
    sandbox_id: Type.Null({ description: 'Always null: the sandbox is its owner’s alone.' }),
    selected_repository: nullable(Type.String()),
    selected_branch: nullable(Type.String()),
    git_provider: nullable(ref(ProviderType)),
    title: nullable(Type.String()),
    pr_number: Type.Array(Type.Integer()),
    llm_model: nullable(Type.String()),
    metrics: nullable(ref(MetricsSnapshot)),
    parent_conversation_id: Type.Null(),
    sub_conversation_ids: Type.Array(Type.String()),
    ...timestamps(),
  },
);
export type SharedConversation = Static<typeof SharedConversation>;
