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
import { type CallOptions, type QueryValue, pathOf } from '../http.ts';
import { MARKETPLACE_OPERATIONS } from './marketplace-operations.ts';
import { AppServerPlugins } from './plugins.ts';

type Call = CallOptions & { params?: Record<string, string>; query?: Record<string, QueryValue>; body?: unknown };

/** Where an organization entry is: its organization and the `org_version` read (writes are checked against it). */
export interface OrgWrite {
  orgId?: string;
  expectedVersion?: string;
}

/**
 * Registered marketplaces (instance < organization < personal) and the preview of one before it is registered.
 * `AppServerClient` has them all.
 */
export abstract class AppServerMarketplaces extends AppServerPlugins {
  private marketplaceCall<T>(name: keyof typeof MARKETPLACE_OPERATIONS, { params, ...call }: Call = {}) {
    const { method, path } = MARKETPLACE_OPERATIONS[name];
    return this.http.json<T>({ ...call, method, path: pathOf(path, params) });
  }

  /** The caller's composed marketplaces (with `orgId`: that organization's, the caller being a member). */
  listMarketplaces(orgId?: string, options?: CallOptions): Promise<MarketplaceList> {
    return this.marketplaceCall('listMarketplaces', { ...options, query: orgId ? { org_id: orgId } : {} });
  }
  /** Registers one: 409 when the name is taken (or inherited), 403 for an organization's unless owner or admin. */
  registerMarketplace(request: MarketplaceCreate, options?: CallOptions): Promise<Marketplace> {
    return this.marketplaceCall('registerMarketplace', { ...options, body: request });
  }
  updateMarketplace(
    scope: MarketplaceScope,
    name: string,
    change: Omit<MarketplaceUpdate, 'expected_version'>,
    where: OrgWrite = {},
    options?: CallOptions,
  ): Promise<Marketplace> {
    return this.marketplaceCall('updateMarketplace', {
      ...options,
      params: { scope, name },
      query: where.orgId ? { org_id: where.orgId } : {},
      body: { ...change, ...(where.expectedVersion ? { expected_version: where.expectedVersion } : {}) },
    });
  }
  async deleteMarketplace(
    scope: MarketplaceScope,
    name: string,
    where: OrgWrite = {},
    options?: CallOptions,
  ): Promise<void> {
    await this.marketplaceCall<unknown>('deleteMarketplace', {
      ...options,
      params: { scope, name },
      query: {
        ...(where.orgId ? { org_id: where.orgId } : {}),
        ...(where.expectedVersion ? { expected_version: where.expectedVersion } : {}),
      },
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
    return this.marketplaceCall('approveMarketplace', {
      ...options,
      params: { scope, name },
      query: where.orgId ? { org_id: where.orgId } : {},
      body: {
        approved_ref: approvedRef,
        ...(where.expectedVersion ? { expected_version: where.expectedVersion } : {}),
      },
    });
  }
  /** The Skills & Plugins table: every plugin of the composed marketplaces, what it brings, its problems. */
  skillsAndPlugins(orgId?: string, options?: CallOptions): Promise<SkillsTable> {
    return this.marketplaceCall('skillsAndPlugins', { ...options, query: orgId ? { org_id: orgId } : {} });
  }
  /** A marketplace read at its ref, nothing registered: its plugins and every problem. */
  previewMarketplace(request: MarketplacePreviewRequest, options?: CallOptions): Promise<MarketplacePreview> {
    return this.marketplaceCall('previewMarketplace', { ...options, body: request });
  }
}
