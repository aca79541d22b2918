import type { KubeConfig, KubernetesObject, KubernetesObjectApi } from '@kubernetes/client-node';
import { KubeError } from './kube-error.ts';

export { KubeError };

/**
 * The client library, given by whoever loaded it: imported here, a bundle (one file) would load it at every start
 * of anything, since bundling turns a dynamic import of this module into code that runs at load.
 */
export type KubeClient = typeof import('@kubernetes/client-node');

export type Named = KubernetesObject & { apiVersion: string; kind: string; metadata: { name: string } };

export interface WatchEvent<T> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: T;
}

/** The few calls the backend makes, each answering plainly or throwing a KubeError that says what failed. */
export class KubeApi {
  private readonly objects: KubernetesObjectApi;

  constructor(
    private readonly client: KubeClient,
    private readonly kubeConfig: KubeConfig,
    readonly namespace: string,
  ) {
    this.objects = client.KubernetesObjectApi.makeApiClient(kubeConfig);
  }

  create<T extends KubernetesObject>(object: Named & T): Promise<T> {
    return this.call(`create ${describe(object)}`, () => this.objects.create(this.scoped(object)));
  }

  replace<T extends KubernetesObject>(object: Named & T): Promise<T> {
    return this.call(`replace ${describe(object)}`, () => this.objects.replace(this.scoped(object)));
  }

  /** The object, or undefined when there is none. */
  async read<T extends KubernetesObject>(apiVersion: string, kind: string, name: string): Promise<T | undefined> {
    const header = { apiVersion, kind, metadata: { name, namespace: this.namespace } };
    return this.absentAsUndefined(() =>
      this.call(`read ${describe(header)}`, () => this.objects.read<T>(header as Named & T)),
    );
  }

  /** A cluster-wide object (a StorageClass), or undefined. */
  async readCluster<T extends KubernetesObject>(
    apiVersion: string,
    kind: string,
    name: string,
  ): Promise<T | undefined> {
    const header = { apiVersion, kind, metadata: { name } };
    return this.absentAsUndefined(() =>
      this.call(`read ${kind} ${name}`, () => this.objects.read<T>(header as Named & T)),
    );
  }

  /** Deletes it (its dependents in the background); false when there was none. */
  async delete(apiVersion: string, kind: string, name: string, graceSeconds?: number): Promise<boolean> {
    const header = { apiVersion, kind, metadata: { name, namespace: this.namespace } };
    const deleted = await this.absentAsUndefined(() =>
      this.call(`delete ${describe(header)}`, () =>
        this.objects.delete(header, undefined, undefined, graceSeconds, undefined, 'Background'),
      ),
    );
    return deleted !== undefined;
  }

  async list<T extends KubernetesObject>(
    apiVersion: string,
    kind: string,
    query: { labelSelector?: string; fieldSelector?: string },
  ): Promise<{ items: T[]; resourceVersion: string }> {
    const list = await this.call(`list ${kind} in namespace ${this.namespace}`, () =>
      this.objects.list<T>(
        apiVersion,
        kind,
        this.namespace,
        undefined,
        undefined,
        undefined,
        query.fieldSelector,
        query.labelSelector,
      ),
    );
    return { items: list.items, resourceVersion: list.metadata?.resourceVersion ?? '' };
  }

  /**
   * Streams changes of `resource` (e.g. `pods`) of the namespace from `resourceVersion` on, until `stop()` or the
   * stream ends (`ended` then resolves with why, undefined for a clean end).
   */
  async watch<T>(
    resource: string,
    query: { labelSelector: string; resourceVersion: string },
    onEvent: (event: WatchEvent<T>) => void,
  ): Promise<{ stop(): void; ended: Promise<Error | undefined> }> {
    let finish: (error: Error | undefined) => void = () => {};
    const ended = new Promise<Error | undefined>((resolve) => {
      finish = resolve;
    });
    const path = `/api/v1/namespaces/${this.namespace}/${resource}`;
    const controller = await new this.client.Watch(this.kubeConfig).watch(
      path,
      { ...query, allowWatchBookmarks: true },
      (type, object) => onEvent({ type: type as WatchEvent<T>['type'], object: object as T }),
      (error: unknown) => finish(error ? (error as Error) : undefined),
    );
    return { stop: () => controller.abort(), ended };
  }

  private scoped<T extends Named>(object: T): T {
    return { ...object, metadata: { ...object.metadata, namespace: this.namespace } };
  }

  private async absentAsUndefined<T>(work: () => Promise<T>): Promise<T | undefined> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof KubeError && error.code === 404) return undefined;
      throw error;
    }
  }

  private async call<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw asKubeError(this.client, what, error);
    }
  }
}

function describe(object: { kind: string; metadata: { name: string; namespace?: string } }): string {
  const where = object.metadata.namespace ? ` in namespace ${object.metadata.namespace}` : '';
  return `${object.kind} ${object.metadata.name}${where}`;
}

/** The API's `kind: Status` (reason, message) as a KubeError; a failure to reach it as code 0. */
export function asKubeError(client: KubeClient, what: string, error: unknown): KubeError {
  if (error instanceof KubeError) return error;
  if (error instanceof client.ApiException) {
    const status = parsed(error.body);
    const reason = typeof status?.reason === 'string' ? status.reason : `HTTP ${error.code}`;
    const message = typeof status?.message === 'string' ? status.message : String(error.message);
    return new KubeError(error.code, reason, `${what}: ${reason} (${error.code}): ${message}`);
  }
  const cause = error as Error;
  return new KubeError(0, 'Unreachable', `${what}: the Kubernetes API did not answer: ${cause.message}`);
}

function parsed(body: unknown): Record<string, unknown> | undefined {
  if (typeof body === 'object' && body !== null) return body as Record<string, unknown>;
  if (typeof body !== 'string') return undefined;
  try {
    return JSON.parse(body) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** The cluster from a kubeconfig file, else in-cluster (a service account), else ~/.kube/config. */
export function loadKubeConfig(client: KubeClient, path: string | undefined): KubeConfig {
  const kubeConfig = new client.KubeConfig();
  if (path) kubeConfig.loadFromFile(path);
  else kubeConfig.loadFromDefault();
  return kubeConfig;
}
