import type { LLMModelPage, ProviderPage, SkillPage, UserGitInfo } from '@bosun/protocol';
import type { CallOptions } from '../http.ts';
import type { PageQuery } from './account.ts';
import { AppServerConversationWorkspace } from './conversation-workspace.ts';

/** A search of the models (or, without `provider__eq`, of the providers). */
export interface ModelSearch extends PageQuery {
  query?: string;
  provider__eq?: string;
  verified__eq?: boolean;
}

/**
 * What a web client reads on its settings and home pages: the JSON Schemas of the settings objects, the LLM
 * models and providers to pick from, the skills of a new conversation and the caller's Git account.
 * `AppServerClient` has them all.
 */
export abstract class AppServerCatalog extends AppServerConversationWorkspace {
  /** The JSON Schema of `agent_settings_diff` (what `updateSettings` accepts there). */
  agentSettingsSchema(options?: CallOptions): Promise<Record<string, unknown>> {
    return this.call('agentSettingsSchema', options);
  }
  /** The JSON Schema of `conversation_settings_diff`. */
  conversationSettingsSchema(options?: CallOptions): Promise<Record<string, unknown>> {
    return this.call('conversationSettingsSchema', options);
  }
  searchModels(search: ModelSearch = {}, options?: CallOptions): Promise<LLMModelPage> {
    return this.call('searchModels', { ...options, query: { ...search } });
  }
  searchProviders(search: Omit<ModelSearch, 'provider__eq'> = {}, options?: CallOptions): Promise<ProviderPage> {
    return this.call('searchProviders', { ...options, query: { ...search } });
  }
  /** The skills a new conversation of the caller loads (its Auto-Load marketplaces' plugins). */
  searchSkills(search: PageQuery = {}, options?: CallOptions): Promise<SkillPage> {
    return this.call('searchSkills', { ...options, query: { ...search } });
  }
  /** The caller's Git account as the app knows it (a 403 `BosunApiError` when no provider is connected). */
  gitInfo(options?: CallOptions): Promise<UserGitInfo> {
    return this.call('gitInfo', options);
  }
}
