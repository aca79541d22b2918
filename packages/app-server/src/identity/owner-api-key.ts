import { withoutPassword } from '../config.ts';
import { DatabaseOpenError, KeyRing, createRepositories, newSecretsKey, openDatabase } from '../data/index.ts';
import { StartError } from '../start-errors.ts';

export interface OwnerApiKeyOptions {
  /** The install's data directory (its SQLite database, unless `databaseUrl` names PostgreSQL). */
  dataDir: string;
  databaseUrl?: string | undefined;
  name?: string | undefined;
  /** Days until the key stops working; none: it does not expire. */
  expiresInDays?: number | undefined;
}

/**
 * A new API key of the install's owner (made if the install never started), straight in the database: safe while
 * the server runs (SQLite in WAL mode with a busy timeout; PostgreSQL transactions). No secret is sealed or
 * opened here, so the install's secrets key is not needed: a throwaway key ring only satisfies the repositories.
 * A database that cannot be opened is a `StartError` saying why (without a password).
 */
export async function createOwnerApiKey(options: OwnerApiKeyOptions): Promise<string> {
  const database = await openDatabase({
    dataDir: options.dataDir,
    ...(options.databaseUrl ? { url: options.databaseUrl } : {}),
  }).catch((error: unknown) => {
    throw error instanceof DatabaseOpenError ? new StartError(withoutPassword(error.message)) : error;
  });
  try {
    const repositories = createRepositories(database, new KeyRing(newSecretsKey()));
    const { user } = await repositories.users.ensureOwner();
    const expiresAt =
      options.expiresInDays === undefined
        ? null
        : new Date(Date.now() + options.expiresInDays * 24 * 60 * 60_000).toISOString();
    const { key } = await repositories.apiKeys.create({
      userId: user.id,
      name: options.name ?? 'bosun api-key create',
      expiresAt,
    });
    return key;
  } finally {
    await database.close();
  }
}
