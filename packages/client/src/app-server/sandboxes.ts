import type { SandboxInfo, SandboxPage, SandboxSpecInfo, SandboxSpecPage, SuccessResponse } from '@bosun/protocol';
import type { CallOptions } from '../http.ts';
import type { PageQuery } from './account.ts';
import { AppServerOrganizations } from './organizations.ts';

/** The server's limit on a batch get of sandboxes or specs. */
const BATCH_LIMIT = 100;

/**
 * The app server's sandbox routes, typed with the protocol's shapes: the caller's sandboxes (each an agent server
 * with its own workspace and session key) and the specs they start from. `AppServerClient` has them all.
 */
export abstract class AppServerSandboxes extends AppServerOrganizations {
  searchSandboxes(query: PageQuery = {}, options?: CallOptions): Promise<SandboxPage> {
    return this.call('searchSandboxes', { ...options, query: { ...query } });
  }
  /** In the order of `ids` (any number: split into batches of 100), null for each unknown or not the caller's. */
  getSandboxes(ids: readonly string[], options?: CallOptions): Promise<(SandboxInfo | null)[]> {
    return inBatches(ids, (id) => this.call('getSandboxes', { ...options, query: { id } }));
  }
  /** Starts one from `sandboxSpecId` (default: the server's default spec); RUNNING, or ERROR with why. */
  startSandbox(sandboxSpecId?: string, options?: CallOptions): Promise<SandboxInfo> {
    const body = sandboxSpecId === undefined ? {} : { sandbox_spec_id: sandboxSpecId };
    return this.call('startSandbox', { ...options, body });
  }
  pauseSandbox(sandboxId: string, options?: CallOptions): Promise<SuccessResponse> {
    return this.call('pauseSandbox', { ...options, params: { sandbox_id: sandboxId } });
  }
  /** A new session key: read the sandbox again for it. */
  resumeSandbox(sandboxId: string, options?: CallOptions): Promise<SuccessResponse> {
    return this.call('resumeSandbox', { ...options, params: { sandbox_id: sandboxId } });
  }
  deleteSandbox(sandboxId: string, options?: CallOptions): Promise<SuccessResponse> {
    return this.call('deleteSandbox', { ...options, params: { sandbox_id: sandboxId } });
  }
  searchSandboxSpecs(query: PageQuery = {}, options?: CallOptions): Promise<SandboxSpecPage> {
    return this.call('searchSandboxSpecs', { ...options, query: { ...query } });
  }
  getSandboxSpecs(ids: readonly string[], options?: CallOptions): Promise<(SandboxSpecInfo | null)[]> {
    return inBatches(ids, (id) => this.call('getSandboxSpecs', { ...options, query: { id } }));
  }
}

async function inBatches<T>(ids: readonly string[], get: (batch: string[]) => Promise<T[]>): Promise<T[]> {
  const batches: string[][] = [];
  for (let start = 0; start < ids.length; start += BATCH_LIMIT) batches.push(ids.slice(start, start + BATCH_LIMIT));
  return (await Promise.all(batches.map(get))).flat();
}
