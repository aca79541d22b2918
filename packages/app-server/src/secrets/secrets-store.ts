/**
 * The parts of the data layer's `SecretsRepository` and `ProviderTokensRepository` the routes use: values are
 * sealed at rest, and nothing here lists them.
 */

export interface SecretInfo {
  id: string;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface SecretsStore {
  create(userId: string, input: { name: string; description?: string | null; value: string }): Promise<SecretInfo>;
  search(
    userId: string,
    search: { nameContains?: string; pageId?: string; limit: number },
  ): Promise<{ items: SecretInfo[]; nextPageId: string | null }>;
  get(userId: string, name: string): Promise<SecretInfo | undefined>;
  update(userId: string, name: string, change: { description?: string | null; value?: string }): Promise<boolean>;
  delete(userId: string, name: string): Promise<boolean>;
  value(userId: string, name: string): Promise<string | undefined>;
}

export interface ProviderTokensStore {
  set(userId: string, provider: string, input: { token: string; host?: string | null }): Promise<void>;
  list(userId: string): Promise<{ provider: string; host: string | null }[]>;
  delete(userId: string, provider: string): Promise<boolean>;
  token(userId: string, provider: string): Promise<{ token: string; host: string | null } | undefined>;
}
