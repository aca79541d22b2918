import type { ProviderType } from '@bosun/protocol';

/** A custom secret as listed: everything but its value. */
export interface SecretEntry {
  id: string;
  name: string;
  description: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface SecretPage {
  items: SecretEntry[];
  nextPageId: string | null;
}

/** A user's custom secrets and Git provider tokens; values are sealed at rest and never listed. */
export interface SecretsStore {
  /** Throws a `DataConflictError` (409) if the user has a secret by that name. */
  create(userId: string, secret: { name: string; description: string | null; value: string }): Promise<SecretEntry>;
  /** The user's secret with this id or name. */
  find(userId: string, idOrName: string): Promise<SecretEntry | undefined>;
  search(userId: string, query: { nameContains?: string; pageId?: string; limit: number }): Promise<SecretPage>;
  update(
    userId: string,
    id: string,
    change: { name?: string; description?: string | null; value?: string },
  ): Promise<SecretEntry | undefined>;
  delete(userId: string, id: string): Promise<boolean>;
  /** The host of each provider the user has a token for. */
  providerHosts(userId: string): Promise<Partial<Record<ProviderType, string | null>>>;
  /** Stores tokens (a null token keeps the stored one and changes only the host). */
  saveProviderTokens(
    userId: string,
    tokens: Partial<Record<ProviderType, { token?: string | null; host?: string | null }>>,
  ): Promise<void>;
  deleteProviderTokens(userId: string): Promise<void>;
}
