import { ConflictError, HttpError, InputError, NotFoundError } from '@bosun/http';
import type {
  Marketplace,
  MarketplaceApproval,
  MarketplaceCreate,
  MarketplaceList,
  MarketplaceScope,
  MarketplaceUpdate,
  OrgRole,
} from '@bosun/protocol';
import type { MarketplaceOwner, MarketplaceRow, Repositories } from '../data/index.ts';
import { MANAGERS } from '../organizations/member-rules.ts';
import { approvalChange } from './approval.ts';
import { type ComposedEntry, type MarketplaceEntry, compose, effective } from './composition.ts';
import { registrationProblems, validRegistration } from './registration.ts';
import { checkedSource } from './source-check.ts';

/** Who asks: the user, and the organization the request acts in (`X-Org-Id`, or its key's). */
export interface Caller {
  userId: string;
  orgId: string | null;
}

export interface MarketplaceRegistryDeps {
  repositories: Pick<Repositories, 'marketplaces' | 'organizations'>;
  /** The instance's marketplaces (configuration). */
  instance: readonly MarketplaceEntry[];
  /** The commit a ref of a source names now (fetched as the user): what `review` starts from. */
  resolve: (userId: string, source: string, ref: string | null) => Promise<string>;
}

/**
 * The registered marketplaces: the instance's (read-only), organizations' (written by their owners and admins,
 * each write naming the version it read) and each user's own, composed per user (see `compose`).
 */
export class MarketplaceRegistry {
  constructor(private readonly deps: MarketplaceRegistryDeps) {}

  /** The composition of the instance, the organization `orgId` (null: none) and the user's own entries. */
  async composed(userId: string, orgId: string | null): Promise<ComposedEntry[]> {
    const owners: MarketplaceOwner[] = [{ scope: 'personal', userId }];
    if (orgId) owners.unshift({ scope: 'organization', orgId });
    const rows = (await this.deps.repositories.marketplaces.list(owners)).map(entryOf);
    return compose(
      this.deps.instance,
      rows.filter((e) => e.scope === 'organization'),
      rows.filter((e) => e.scope === 'personal'),
    );
  }

  /** What a new conversation of the user in `orgId` auto-loads. */
  async autoLoaded(userId: string, orgId: string | null): Promise<MarketplaceEntry[]> {
    return effective(await this.composed(userId, orgId)).filter((entry) => entry.auto_load);
  }

  /** The caller's view: `orgId` (a member's organization; default: the one the request acts in). */
  async list(caller: Caller, orgId: string | undefined): Promise<MarketplaceList> {
    const org = await this.orgOf(caller, orgId);
    const role = org ? await this.roleOf(caller.userId, org) : undefined;
    const composed = await this.composed(caller.userId, org);
    const orgWritable = !!role && MANAGERS.includes(role);
    return {
      items: composed.map(({ entry, overriddenBy }) => ({
        ...entry,
        writable: entry.scope === 'personal' || (entry.scope === 'organization' && orgWritable),
        overridden_by: overriddenBy,
      })),
      org_id: org,
      org_version: org ? String(await this.deps.repositories.marketplaces.version(org)) : null,
    };
  }

  /** The organization composed in: `orgId` (the caller must be a member: 404 otherwise), else the acting one. */
  async orgOf(caller: Caller, orgId: string | undefined): Promise<string | null> {
    const org = (orgId ?? caller.orgId)?.toLowerCase() ?? null;
    if (org && !(await this.roleOf(caller.userId, org))) throw new NotFoundError('Organization not found');
    return org;
  }

  async create(caller: Caller, body: MarketplaceCreate): Promise<Marketplace> {
    const valid = validRegistration(body, ['body']);
    if (Array.isArray(valid)) throw new InputError(valid);
    const { name, source, updates } = valid;
    const checked = await this.checked(caller.userId, source, valid.ref, ['body']);
    const entry = {
      ...valid,
      approved_ref:
        updates === 'review' ? (checked ?? (await this.head(caller.userId, source, valid.ref, ['body']))) : null,
      registeredBy: caller.userId,
    };
    const { marketplaces } = this.deps.repositories;
    if ((body.scope ?? 'personal') === 'personal') {
      await this.refuseInherited(caller.userId, name);
      const row = await marketplaces.create({ scope: 'personal', userId: caller.userId }, entry);
      return { ...entryOf(row), writable: true, overridden_by: null };
    }
    const orgId = (body.org_id ?? caller.orgId)?.toLowerCase();
    if (!orgId) {
      throw new InputError([
        { loc: ['body', 'org_id'], msg: 'name the organization (or act in one: X-Org-Id)', type: 'missing' },
      ]);
    }
    const version = await this.manage(caller.userId, orgId, body.expected_version, ['body', 'expected_version']);
    const row = await marketplaces.create({ scope: 'organization', orgId }, entry, version);
    return { ...entryOf(row), writable: true, overridden_by: null };
  }

  async update(
    caller: Caller,
    scope: MarketplaceScope,
    name: string,
    orgId: string | undefined,
    body: MarketplaceUpdate,
  ): Promise<Marketplace> {
    const problems = registrationProblems({ repo_path: body.repo_path }, ['body']);
    if (problems.length) throw new InputError(problems);
    const { owner, version } = await this.writableOwner(caller, scope, orgId, body.expected_version, [
      'body',
      'expected_version',
    ]);
    const { expected_version: _, ...change } = body;
    const current = await this.deps.repositories.marketplaces.get(owner, name);
    if (!current) throw new NotFoundError('Marketplace not found');
    const approved = await approvalChange(current, change, (ref) =>
      this.head(caller.userId, current.source, ref, ['body']),
    );
    const row = await this.deps.repositories.marketplaces.update(owner, name, { ...change, ...approved }, version);
    if (!row) throw new NotFoundError('Marketplace not found');
    return { ...entryOf(row), writable: true, overridden_by: null };
  }

  /** Approves a commit of a `review` marketplace: new conversations load it from now on. */
  async approve(
    caller: Caller,
    scope: MarketplaceScope,
    name: string,
    orgId: string | undefined,
    body: MarketplaceApproval,
  ): Promise<Marketplace> {
    const { owner, version } = await this.writableOwner(caller, scope, orgId, body.expected_version, [
      'body',
      'expected_version',
    ]);
    const current = await this.deps.repositories.marketplaces.get(owner, name);
    if (!current) throw new NotFoundError('Marketplace not found');
    if (current.updates !== 'review') {
      throw new ConflictError(`${name} follows its ref: set updates to review to approve commits`);
    }
    const change = { approved_ref: body.approved_ref };
    const row = await this.deps.repositories.marketplaces.update(owner, name, change, version);
    if (!row) throw new NotFoundError('Marketplace not found');
    return { ...entryOf(row), writable: true, overridden_by: null };
  }

  /** The commit to start reviewing from: a ref that cannot be resolved is a 422 at `at` (nothing to approve yet). */
  /** A source on a host of its own, checked (see `checkedSource`): the commit its ref names, or a 422. */
  checked(userId: string, source: string, ref: string | null, at: (string | number)[]): Promise<string | undefined> {
    return checkedSource(() => this.deps.resolve(userId, source, ref), source, ref, at);
  }

  async head(userId: string, source: string, ref: string | null, at: (string | number)[]): Promise<string> {
    try {
      return await this.deps.resolve(userId, source, ref);
    } catch (error) {
      throw new InputError([
        {
          loc: [...at, ref ? 'ref' : 'source'],
          msg: `cannot review updates: ${(error as Error).message}`,
          type: 'value_error',
        },
      ]);
    }
  }

  async delete(
    caller: Caller,
    scope: MarketplaceScope,
    name: string,
    orgId: string | undefined,
    expected: string | undefined,
  ): Promise<void> {
    const { owner, version } = await this.writableOwner(caller, scope, orgId, expected, ['query', 'expected_version']);
    if (!(await this.deps.repositories.marketplaces.delete(owner, name, version))) {
      throw new NotFoundError('Marketplace not found');
    }
  }

  private async writableOwner(
    caller: Caller,
    scope: MarketplaceScope,
    orgId: string | undefined,
    expected: string | undefined,
    at: (string | number)[],
  ): Promise<{ owner: MarketplaceOwner; version: number | undefined }> {
    if (scope === 'instance') {
      throw new HttpError(403, "The instance's marketplaces come from the server's configuration: they are read-only");
    }
    if (scope === 'personal') return { owner: { scope: 'personal', userId: caller.userId }, version: undefined };
    const org = (orgId ?? caller.orgId)?.toLowerCase();
    if (!org) {
      throw new InputError([
        { loc: ['query', 'org_id'], msg: 'name the organization (or act in one: X-Org-Id)', type: 'missing' },
      ]);
    }
    const version = await this.manage(caller.userId, org, expected, at);
    return { owner: { scope: 'organization', orgId: org }, version };
  }

  /** The version a write of the organization's marketplaces names, once the caller may write them. */
  private async manage(userId: string, orgId: string, expected: string | undefined, at: (string | number)[]) {
    const role = await this.roleOf(userId, orgId);
    if (!role) throw new NotFoundError('Organization not found');
    if (!MANAGERS.includes(role)) {
      throw new HttpError(403, "Only the organization's owners and admins change its marketplaces");
    }
    if (expected === undefined || !/^\d{1,15}$/.test(expected)) {
      throw new InputError([
        {
          loc: at,
          msg: 'the org_version read (GET /api/v1/marketplaces): organization writes are checked against it',
          type: expected === undefined ? 'missing' : 'value_error',
        },
      ]);
    }
    return Number(expected);
  }

  /** A 409 when a personal entry would take a name the instance or one of the user's organizations has. */
  private async refuseInherited(userId: string, name: string): Promise<void> {
    const taken = (await this.inheritedNames(userId)).get(name);
    if (taken) throw new ConflictError(taken);
  }

  /** The names a personal entry may not take (the instance's, the user's organizations'), each with why. */
  async inheritedNames(userId: string): Promise<Map<string, string>> {
    const taken = new Map<string, string>();
    for (const entry of this.deps.instance) {
      taken.set(entry.name, `the instance has a marketplace named ${entry.name}: choose another name`);
    }
    const orgs = await this.deps.repositories.organizations.listForUser(userId);
    const owners = orgs.map((org) => ({ scope: 'organization' as const, orgId: org.id }));
    for (const row of await this.deps.repositories.marketplaces.list(owners)) {
      const org = orgs.find((o) => o.id === row.org_id);
      if (!taken.has(row.name)) {
        taken.set(
          row.name,
          `your organization ${org?.name ?? ''} has a marketplace named ${row.name}: choose another name`,
        );
      }
    }
    return taken;
  }

  private roleOf(userId: string, orgId: string): Promise<OrgRole | undefined> {
    return this.deps.repositories.organizations.role(orgId.toLowerCase(), userId);
  }
}

/** A stored registration as the composition sees it. */
export function entryOf(row: MarketplaceRow): MarketplaceEntry {
  return {
    name: row.name,
    source: row.source,
    ref: row.ref,
    repo_path: row.repo_path,
    auto_load: row.auto_load === 1,
    updates: row.updates,
    approved_ref: row.approved_ref,
    scope: row.scope,
    org_id: row.org_id,
    registered_by: row.registered_by,
    registered_at: row.registered_at,
    updated_at: row.updated_at,
  };
}
