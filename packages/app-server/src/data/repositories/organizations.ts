import { type Kysely, type Selectable, type Transaction, sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { AlreadyMemberError, LastOwnerError } from '../errors.ts';
import type { Dialect } from '../migrations/index.ts';
import type { OrganizationsTable, Role, Tables } from '../tables.ts';
import { nowIso } from '../tokens.ts';
import { isForeignKeyViolation } from './constraints.ts';
import { countRows } from './count.ts';
import { type OrgDeletionOutcome, deleteOrganization } from './organization-deletion.ts';
import { OwnedRows } from './owned-rows.ts';
import { containsText } from './text-search.ts';

export type Organization = Selectable<OrganizationsTable>;

/** An organization as one of its members sees it. */
export interface OrganizationOfUser extends Organization {
  role: Role;
}

export interface Member {
  user_id: string;
  email: string | null;
  name: string | null;
  role: Role;
  joined_at: string;
}

/** Each user's memberships, by organization. */
const membershipsOf = (db: Kysely<Tables>) => new OwnedRows(db, 'memberships', 'org_id');

const ownersOf = (db: Kysely<Tables>, orgId: string) =>
  countRows(db.selectFrom('memberships').where('org_id', '=', orgId).where('role', '=', 'owner'));

export class OrganizationsRepository {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly dialect: Dialect,
  ) {}

  /** A new organization whose creator is its owner (one transaction). */
  async create(input: { name: string; ownerUserId: string }): Promise<OrganizationOfUser> {
    const organization: Organization = { id: uuidv7(), name: input.name, created_at: nowIso() };
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('organizations').values(organization).execute();
      await trx
        .insertInto('memberships')
        .values({
          org_id: organization.id,
          user_id: input.ownerUserId,
          role: 'owner',
          created_at: organization.created_at,
        })
        .execute();
    });
    return { ...organization, role: 'owner' };
  }

  async get(orgId: string): Promise<Organization | undefined> {
    return this.db.selectFrom('organizations').selectAll().where('id', '=', orgId).executeTakeFirst();
  }

  /** Renames the organization: the renamed organization, or undefined when there is none by this id. */
  async rename(orgId: string, name: string): Promise<Organization | undefined> {
    await this.db.updateTable('organizations').set({ name }).where('id', '=', orgId).execute();
    return this.get(orgId);
  }

  /** Deletes the organization if `userId` is one of its owners (see `deleteOrganization`). */
  async delete(orgId: string, userId: string): Promise<OrgDeletionOutcome> {
    return deleteOrganization(this.db, this.dialect, orgId, userId);
  }

  /** How many owners the organization has. */
  async owners(orgId: string): Promise<number> {
    return ownersOf(this.db, orgId);
  }

  /** How many members the organization has; with `emailContains`, those whose email contains it (any case). */
  async countMembers(orgId: string, emailContains?: string): Promise<number> {
    let query = this.db.selectFrom('memberships').where('memberships.org_id', '=', orgId);
    if (emailContains) {
      query = query
        .innerJoin('users', 'users.id', 'memberships.user_id')
        .where(containsText('users.email', emailContains));
    }
    return countRows(query);
  }

  /** The organizations the user is a member of, with their role, oldest first. */
  async listForUser(userId: string): Promise<OrganizationOfUser[]> {
    return this.db
      .selectFrom('memberships')
      .innerJoin('organizations', 'organizations.id', 'memberships.org_id')
      .select(['organizations.id', 'organizations.name', 'organizations.created_at', 'memberships.role'])
      .where('memberships.user_id', '=', userId)
      .orderBy('organizations.created_at')
      .orderBy('organizations.id')
      .execute();
  }

  /** The user's role in the organization, or undefined when they are not a member. */
  async role(orgId: string, userId: string): Promise<Role | undefined> {
    return (await membershipsOf(this.db).pick(userId, orgId, ['role']))?.role;
  }

  /** The members, in the order they joined. */
  async members(orgId: string): Promise<Member[]> {
    return this.db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select([
        'users.id as user_id',
        'users.email',
        'users.name',
        'memberships.role',
        'memberships.created_at as joined_at',
      ])
      .where('memberships.org_id', '=', orgId)
      .orderBy('memberships.created_at')
      .orderBy('users.id')
      .execute();
  }

  /**
   * Adds a member: false when the organization is gone (deleted since the caller's role was read);
   * AlreadyMemberError when the user is one already.
   */
  async addMember(orgId: string, userId: string, role: Role): Promise<boolean> {
    const inserted = await this.db
      .insertInto('memberships')
      .values({ org_id: orgId, user_id: userId, role, created_at: nowIso() })
      .onConflict((oc) => oc.columns(['org_id', 'user_id']).doNothing())
      .executeTakeFirst()
      .catch((error: unknown) => {
        if (isForeignKeyViolation(error)) return undefined;
        throw error;
      });
    if (!inserted) return false;
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) throw new AlreadyMemberError();
    return true;
  }

  /** Changes a member's role: false when not a member; LastOwnerError when it would demote the last owner. */
  async setRole(orgId: string, userId: string, role: Role): Promise<boolean> {
    return this.changeMembership(orgId, userId, role !== 'owner', (trx) =>
      trx.updateTable('memberships').set({ role }).where('org_id', '=', orgId).where('user_id', '=', userId).execute(),
    );
  }

  /** Removes a member: false when not a member; LastOwnerError when they are the last owner. */
  async removeMember(orgId: string, userId: string): Promise<boolean> {
    return this.changeMembership(orgId, userId, true, (trx) => membershipsOf(trx).delete(userId, orgId));
  }

  /**
   * Runs a change of one membership in a transaction that first locks the organization's row, so two changes of
   * the same organization (two owners demoting each other at once) run one after the other and the second sees
   * the first's result: an organization never loses its last owner.
   */
  private async changeMembership(
    orgId: string,
    userId: string,
    removesOwnership: boolean,
    change: (trx: Transaction<Tables>) => Promise<unknown>,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      if (this.dialect === 'postgres') {
        await sql`select id from organizations where id = ${orgId} for update`.execute(trx);
      }
      const current = await membershipsOf(trx).pick(userId, orgId, ['role']);
      if (!current) return false;
      if (removesOwnership && current.role === 'owner') {
        if ((await ownersOf(trx, orgId)) <= 1) throw new LastOwnerError();
      }
      await change(trx);
      return true;
    });
  }
}
