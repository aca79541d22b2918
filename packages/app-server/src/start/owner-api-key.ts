import { withoutPassword } from '@bosun/database';
import type { AppDependencies } from '../context.ts';
import { DatabaseOpenError, KeyRing, createRepositories, newSecretsKey, openDatabase } from '../data/index.ts';
import type { Repositories } from '../data/index.ts';
import { prepareOwnerSignIn, signInUrl } from '../identity/sign-in.ts';
import { StartError } from './start-errors.ts';

/** Where the install keeps its data: its SQLite database in `dataDir`, unless `databaseUrl` names PostgreSQL. */
export interface InstallDatabaseOptions {
  dataDir: string;
  databaseUrl?: string | undefined;
}

export interface OwnerApiKeyOptions extends InstallDatabaseOptions {
  name?: string | undefined;
  /** Days until the key stops working; none: it does not expire. */
  expiresInDays?: number | undefined;
}

/**
 * Works on the install's database directly, as its owner (made if the install never started): safe while the
 * server runs (SQLite in WAL mode with a busy timeout; PostgreSQL transactions). No secret is sealed or opened
 * here, so the install's secrets key is not needed: a throwaway key ring only satisfies the repositories. A
 * database that cannot be opened is a `StartError` saying why (without a password).
 */
async function asOwner<T>(
  options: InstallDatabaseOptions,
  work: (repositories: Repositories, ownerId: string) => Promise<T>,
): Promise<T> {
  const database = await openDatabase({
    dataDir: options.dataDir,
    ...(options.databaseUrl ? { url: options.databaseUrl } : {}),
  }).catch((error: unknown) => {
    throw error instanceof DatabaseOpenError ? new StartError(withoutPassword(error.message)) : error;
  });
  try {
    const repositories = createRepositories(database, new KeyRing(newSecretsKey()));
    const { user } = await repositories.users.ensureOwner();
    return await work(repositories, user.id);
  } finally {
    await database.close();
  }
}

/** A new API key of the install's owner. */
export function createOwnerApiKey(options: OwnerApiKeyOptions): Promise<string> {
  return asOwner(options, async (repositories, ownerId) => {
    const expiresAt =
      options.expiresInDays === undefined
        ? null
        : new Date(Date.now() + options.expiresInDays * 24 * 60 * 60_000).toISOString();
    const { key } = await repositories.apiKeys.create({
      userId: ownerId,
      name: options.name ?? 'bosun api-key create',
      expiresAt,
    });
    return key;
  });
}

/** A fresh one-time sign-in URL of the install's owner at `publicUrl` (for when the printed one was used or lost). */
export function createOwnerSignInUrl(options: InstallDatabaseOptions & { publicUrl: string }): Promise<string> {
  return asOwner(options, (repositories, ownerId) => signInUrl(repositories.sessions, ownerId, options.publicUrl));
}

/**
 * On the first start of an install (no owner yet): makes the owner and answers their one-time sign-in URL, to
 * print once on standard output (never in the log: it is a credential). Later starts answer undefined.
 */
export async function ownerSignInOnFirstStart(
  dependencies: AppDependencies,
  keyRing: KeyRing,
  publicUrl: string,
): Promise<string | undefined> {
  if (!dependencies.database) return undefined;
  return prepareOwnerSignIn(createRepositories(dependencies.database, keyRing), publicUrl);
}
