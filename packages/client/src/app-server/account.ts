import type {
  ApiKey,
  ApiKeyCreate,
  ApiKeyCreated,
  CustomSecretCreate,
  CustomSecretPage,
  CustomSecretUpdate,
  CustomSecretWithoutValue,
  EditResponse,
  LLMCheckRequest,
  LLMCheckResult,
  LoginMethod,
  POSTProviderModel,
  Settings,
  SettingsUpdate,
  UserInfo,
} from '@bosun/protocol';
import type { CallOptions } from '../http.ts';
import { AppServerCalls } from './calls.ts';

export interface PageQuery {
  page_id?: string;
  limit?: number;
}

/**
 * The app server's account routes, typed with the protocol's shapes: the caller, their API keys, settings,
 * secrets (values go in, never out). `AppServerClient` has them all.
 */
export abstract class AppServerAccount extends AppServerCalls {
  me(options?: CallOptions): Promise<UserInfo> {
    return this.call('me', options);
  }
  signOut(options?: CallOptions): Promise<EditResponse> {
    return this.call('signOut', options);
  }
  /** The ways to sign in a web client shows (OpenID Connect login routes; empty without an issuer). No credential. */
  loginMethods(options?: CallOptions): Promise<LoginMethod[]> {
    return this.call('loginMethods', options);
  }
  listApiKeys(options?: CallOptions): Promise<ApiKey[]> {
    return this.call('listApiKeys', options);
  }
  /** The answer holds the key itself, this once. */
  createApiKey(body: ApiKeyCreate = {}, options?: CallOptions): Promise<ApiKeyCreated> {
    return this.call('createApiKey', { ...options, body });
  }
  deleteApiKey(keyId: string, options?: CallOptions): Promise<EditResponse> {
    return this.call('deleteApiKey', { ...options, params: { key_id: keyId } });
  }
  getSettings(options?: CallOptions): Promise<Settings> {
    return this.call('getSettings', options);
  }
  updateSettings(update: SettingsUpdate, options?: CallOptions): Promise<EditResponse> {
    return this.call('updateSettings', { ...options, body: update });
  }
  /** One tiny completion with the caller's LLM (`llm`'s fields over their settings): the answer, or the provider's error. */
  checkLlm(llm: LLMCheckRequest = {}, options?: CallOptions): Promise<LLMCheckResult> {
    return this.call('checkLlm', { ...options, body: llm });
  }
  createSecret(secret: CustomSecretCreate, options?: CallOptions): Promise<CustomSecretWithoutValue> {
    return this.call('createSecret', { ...options, body: secret });
  }
  searchSecrets(query: PageQuery & { name__contains?: string } = {}, options?: CallOptions) {
    return this.call<CustomSecretPage>('searchSecrets', { ...options, query: { ...query } });
  }
  updateSecret(name: string, change: CustomSecretUpdate, options?: CallOptions): Promise<CustomSecretWithoutValue> {
    return this.call('updateSecret', { ...options, params: { secret_id: name }, body: change });
  }
  deleteSecret(name: string, options?: CallOptions): Promise<EditResponse> {
    return this.call('deleteSecret', { ...options, params: { secret_id: name } });
  }
  storeGitProviderTokens(tokens: POSTProviderModel, options?: CallOptions): Promise<EditResponse> {
    return this.call('storeGitProviderTokens', { ...options, body: tokens });
  }
  deleteGitProviderTokens(options?: CallOptions): Promise<EditResponse> {
    return this.call('deleteGitProviderTokens', options);
  }
}
