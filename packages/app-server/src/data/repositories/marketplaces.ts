import { type Kysely, type Selectable, type Transaction, sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { MarketplaceNameTakenError, StaleMarketplacesError } from '../errors.ts';
import type { MarketplacesTable, Tables } from '../tables.ts';
import { nowIso } from '../tokens.ts';
import { isUniqueViolation } from './constraints.ts';

export type MarketplaceRow = Selectable<MarketplacesTable>;

/** Whose a registration is: an organization's or a user's. */
export type MarketplaceOwner = { scope: 'organization'; orgId: string } | { scope: 'personal'; userId: string };

export interface NewMarketplace {
  name: string;
  source: string;
  ref: string | null;
  repo_path: string | null;
  auto_load: boolean;
  updates: 'follow' | 'review';
  approved_ref: string | null;
  registeredBy: string;
}

export type MarketplaceChange = Partial<
  Pick<NewMarketplace, 'ref' | 'repo_path' | 'auto_load' | 'updates' | 'approved_ref'>
>;

/** From one personal list to another: the names removed, the entries changed in place, the new ones. */
export interface PersonalListChange {
  removed: string[];
  changed: [string, MarketplaceChange][];
  added: NewMarketplace[];
}

/** A write of an organization's marketplaces names the version it read (undefined: personal, no check). */
export type ExpectedVersion = number | undefined;

export const ownerKeyOf = (owner: MarketplaceOwner) =>
  owner.scope === 'organization' ? `org:${owner.orgId}` : `user:${owner.userId}`;

/**
 * Marketplaces registered by organizations and users. Every write of an organization's raises its version in the
 * same transaction, and only from the version the writer read: of two writers who read the same version, the
 * second is refused (StaleMarketplacesError) instead of undoing the first's change unseen.
 */
export class MarketplacesRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  /** The entries of these owners, each owner's in the order registered. */
  async list(owners: readonly MarketplaceOwner[]): Promise<MarketplaceRow[]> {
    if (owners.length === 0) return [];
    return this.db
      .selectFrom('marketplaces')
      .selectAll()
      .where('owner_key', 'in', owners.map(ownerKeyOf))
      .orderBy('registered_at')
      .orderBy('id')
      .execute();
  }

  async get(owner: MarketplaceOwner, name: string): Promise<MarketplaceRow | undefined> {
    return this.db
      .selectFrom('marketplaces')
      .selectAll()
      .where('owner_key', '=', ownerKeyOf(owner))
      .where('name', '=', name)
      .executeTakeFirst();
  }

  /** The version of an organization's marketplaces (0 before the first write). */
  async version(orgId: string): Promise<number> {
    const row = await this.db
      .selectFrom('marketplace_versions')
      .select('version')
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    return Number(row?.version ?? 0);
  }

  /** Registers; MarketplaceNameTakenError when the owner has one of that name, StaleMarketplacesError (see above). */
  async create(owner: MarketplaceOwner, entry: NewMarketplace, expected?: ExpectedVersion): Promise<MarketplaceRow> {
    const row = rowOf(owner, entry);
    await nameTaken(entry.name, () =>
      this.db.transaction().execute(async (trx) => {
        await raiseVersion(trx, owner, expected);
        await trx.insertInto('marketplaces').values(row).execute();
      }),
    );
    return row;
  }

  /**
   * A user's whole personal list changed at once, in one transaction: all of it or nothing (a name taken meanwhile
   * is MarketplaceNameTakenError, and nothing is changed).
   */
  async replacePersonal(userId: string, plan: PersonalListChange): Promise<void> {
    await this.db.transaction().execute((trx) => this.replacePersonalIn(trx, userId, plan));
  }

  /** `replacePersonal` as part of a caller's transaction (the settings write it with their other fields). */
  async replacePersonalIn(trx: Transaction<Tables>, userId: string, plan: PersonalListChange): Promise<void> {
    const owner: MarketplaceOwner = { scope: 'personal', userId };
    for (const name of plan.removed) await this.changed(trx, owner, name, (query) => query.deleteFrom('marketplaces'));
    for (const [name, change] of plan.changed) {
      await this.changed(trx, owner, name, (query) => query.updateTable('marketplaces').set(setOf(change)));
    }
    for (const entry of plan.added) {
      await nameTaken(entry.name, () => trx.insertInto('marketplaces').values(rowOf(owner, entry)).execute());
    }
  }

  /** Changes an entry; undefined when the owner has none of that name. */
  async update(
    owner: MarketplaceOwner,
    name: string,
    change: MarketplaceChange,
    expected?: ExpectedVersion,
  ): Promise<MarketplaceRow | undefined> {
    const set = setOf(change);
    return this.db.transaction().execute(async (trx) => {
      const found = await this.changed(trx, owner, name, (query) => query.updateTable('marketplaces').set(set));
      if (!found) return undefined;
      await raiseVersion(trx, owner, expected);
      return trx
        .selectFrom('marketplaces')
        .selectAll()
        .where('owner_key', '=', ownerKeyOf(owner))
        .where('name', '=', name)
        .executeTakeFirst();
    });
  }

  /** Removes an entry: false when the owner has none of that name. */
  async delete(owner: MarketplaceOwner, name: string, expected?: ExpectedVersion): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const found = await this.changed(trx, owner, name, (query) => query.deleteFrom('marketplaces'));
      if (found) await raiseVersion(trx, owner, expected);
      return found;
    });
  }

  private async changed(
    trx: Transaction<Tables>,
    owner: MarketplaceOwner,
    name: string,
    // biome-ignore lint/suspicious/noExplicitAny: an update or a delete of the one row, filtered below.
    statement: (trx: Transaction<Tables>) => any,
  ): Promise<boolean> {
    const result = await statement(trx)
      .where('owner_key', '=', ownerKeyOf(owner))
      .where('name', '=', name)
      .executeTakeFirst();
    return Number(result.numUpdatedRows ?? result.numDeletedRows ?? 0) > 0;
  }
}

/** The row of a new registration. */
function rowOf(owner: MarketplaceOwner, entry: NewMarketplace): MarketplaceRow {
  const now = nowIso();
  return {
    id: uuidv7(),
    scope: owner.scope,
    owner_key: ownerKeyOf(owner),
    user_id: owner.scope === 'personal' ? owner.userId : null,
    org_id: owner.scope === 'organization' ? owner.orgId : null,
    name: entry.name,
    source: entry.source,
    ref: entry.ref,
    repo_path: entry.repo_path,
    auto_load: entry.auto_load ? 1 : 0,
    updates: entry.updates,
    approved_ref: entry.approved_ref,
    registered_by: entry.registeredBy,
    registered_at: now,
    updated_at: now,
  };
}

/** The columns a change sets. */
function setOf(change: MarketplaceChange) {
  return {
    ...(change.ref !== undefined ? { ref: change.ref } : {}),
    ...(change.repo_path !== undefined ? { repo_path: change.repo_path } : {}),
    ...(change.auto_load !== undefined ? { auto_load: change.auto_load ? 1 : 0 } : {}),
    ...(change.updates !== undefined ? { updates: change.updates } : {}),
    ...(change.approved_ref !== undefined ? { approved_ref: change.approved_ref } : {}),
    updated_at: nowIso(),
  };
}

/** Runs an insert; a unique violation is MarketplaceNameTakenError. */
async function nameTaken(name: string, insert: () => Promise<unknown>): Promise<void> {
  try {
    await insert();
  } catch (error) {
    if (isUniqueViolation(error)) throw new MarketplaceNameTakenError(name);
    throw error;
  }
}

/** Raises an organization's version, only from `expected` when given (a row lock orders concurrent writers). */
async function raiseVersion(trx: Transaction<Tables>, owner: MarketplaceOwner, expected: ExpectedVersion) {
  if (owner.scope !== 'organization') return;
  await trx
    .insertInto('marketplace_versions')
    .values({ org_id: owner.orgId, version: 0 })
    .onConflict((oc) => oc.column('org_id').doNothing())
    .execute();
  let update = trx
    .updateTable('marketplace_versions')
    .set({ version: sql<number>`version + 1` })
    .where('org_id', '=', owner.orgId);
  if (expected !== undefined) update = update.where('version', '=', expected);
  const result = await update.executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new StaleMarketplacesError();
}
