import type {
  Marketplace,
  MarketplaceCreate,
  MarketplaceList,
  MarketplacePreview,
  MarketplacePreviewRequest,
  MarketplaceScope,
  MarketplaceUpdate,
  SkillsTable,
} from '@bosun/protocol';
import type { CallOptions } from '../http.ts';
import { AppServerPlugins } from './plugins.ts';

/** Where an organization entry is: its organization and the `org_version` read (writes are checked against it). */
export interface OrgWrite {
  orgId?: string;
  expectedVersion?: string;
}

/** The query naming the organization a call acts in (none: the one the request acts in). */
const inOrg = (orgId?: string) => (orgId ? { org_id: orgId } : {});
/** The version of the organization's entries a write was made against, when the caller read one. */
const atVersion = ({ expectedVersion }: OrgWrite) => (expectedVersion ? { expected_version: expectedVersion } : {});

/**
 * Registered marketplaces (instance < organization < personal) and the preview of one before it is registered.
 * `AppServerClient` has them all.
 */
export abstract class AppServerMarketplaces extends AppServerPlugins {
  /** The caller's composed marketplaces (with `orgId`: that organization's, the caller being a member). */
  listMarketplaces(orgId?: string, options?: CallOptions): Promise<MarketplaceList> {
    return this.call('listMarketplaces', { ...options, query: inOrg(orgId) });
  }
  /** Registers one: 409 when the name is taken (or inherited), 403 for an organization's unless owner or admin. */
  registerMarketplace(request: MarketplaceCreate, options?: CallOptions): Promise<Marketplace> {
    return this.call('registerMarketplace', { ...options, body: request });
  }
  updateMarketplace(
    scope: MarketplaceScope,
    name: string,
    change: Omit<MarketplaceUpdate, 'expected_version'>,
    where: OrgWrite = {},
    options?: CallOptions,
  ): Promise<Marketplace> {
    return this.call('updateMarketplace', {
      ...options,
      params: { scope, name },
      query: inOrg(where.orgId),
      body: { ...change, ...atVersion(where) },
    });
  }
  async deleteMarketplace(
    scope: MarketplaceScope,
    name: string,
    where: OrgWrite = {},
    options?: CallOptions,
  ): Promise<void> {
    await this.call<unknown>('deleteMarketplace', {
      ...options,
      params: { scope, name },
      query: { ...inOrg(where.orgId), ...atVersion(where) },
    });
  }
  /** Approves a commit of a marketplace whose updates are reviewed (`updates: review`). */
  approveMarketplace(
    scope: MarketplaceScope,
    name: string,
    approvedRef: string,
    where: OrgWrite = {},
    options?: CallOptions,
  ): Promise<Marketplace> {
    return this.call('approveMarketplace', {
      ...options,
      params: { scope, name },
      query: inOrg(where.orgId),
      body: { approved_ref: approvedRef, ...atVersion(where) },
    });
  }
  /** The Skills & Plugins table: every plugin of the composed marketplaces, what it brings, its problems. */
  skillsAndPlugins(orgId?: string, options?: CallOptions): Promise<SkillsTable> {
    return this.call('skillsAndPlugins', { ...options, query: inOrg(orgId) });
  }
  /** A marketplace read at its ref, nothing registered: its plugins and every problem. */
  previewMarketplace(request: MarketplacePreviewRequest, options?: CallOptions): Promise<MarketplacePreview> {
    return this.call('previewMarketplace', { ...options, body: request });
  }
}
