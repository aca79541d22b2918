import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type {
  CoreV1Api,
  KubeConfig,
  NetworkingV1Api,
  StorageV1Api,
  V1IngressClass,
  V1Node,
  V1Secret,
  V1StorageClass,
  VersionApi,
  VersionInfo,
} from '@kubernetes/client-node';

type Client = typeof import('@kubernetes/client-node');

/** The few reads and writes of the install commands on a cluster; each failure says what was asked and why. */
export class Cluster {
  private readonly core: CoreV1Api;
  private readonly storage: StorageV1Api;
  private readonly networking: NetworkingV1Api;
  private readonly versions: VersionApi;

  private constructor(
    private readonly client: Client,
    kubeConfig: KubeConfig,
    /** The API server's address (what an unreachable error names). */
    readonly server: string,
  ) {
    this.core = kubeConfig.makeApiClient(client.CoreV1Api);
    this.storage = kubeConfig.makeApiClient(client.StorageV1Api);
    this.networking = kubeConfig.makeApiClient(client.NetworkingV1Api);
    this.versions = kubeConfig.makeApiClient(client.VersionApi);
  }

  /** The cluster of the kubeconfig file `path`, else of $KUBECONFIG or ~/.kube/config, else in-cluster. */
  static async connect(path: string | undefined): Promise<Cluster> {
    // Loaded on first use: the client library is heavy and only these commands need it here.
    const client = await import('@kubernetes/client-node');
    const kubeConfig = new client.KubeConfig();
    const source = path ?? process.env.KUBECONFIG ?? join(homedir(), '.kube', 'config');
    // Without any, the library would quietly aim at http://localhost:8080.
    if (!path && !process.env.KUBECONFIG && !existsSync(source) && !process.env.KUBERNETES_SERVICE_HOST) {
      throw new Error(
        'no kubeconfig ($KUBECONFIG, ~/.kube/config) and not in a cluster: give one with --kubeconfig FILE',
      );
    }
    try {
      if (path) kubeConfig.loadFromFile(path);
      else kubeConfig.loadFromDefault();
    } catch (error) {
      throw new Error(`the kubeconfig ${source}: cannot load it: ${(error as Error).message}`);
    }
    const server = kubeConfig.getCurrentCluster()?.server;
    if (!server) throw new Error(`the kubeconfig ${source} names no current cluster`);
    return new Cluster(client, kubeConfig, server);
  }

  version(): Promise<VersionInfo> {
    return this.call('read the Kubernetes version', () => this.versions.getCode());
  }

  async storageClasses(): Promise<V1StorageClass[]> {
    return (await this.call('list StorageClasses', () => this.storage.listStorageClass())).items;
  }

  async ingressClasses(): Promise<V1IngressClass[]> {
    return (await this.call('list IngressClasses', () => this.networking.listIngressClass())).items;
  }

  async nodes(): Promise<V1Node[]> {
    return (await this.call('list Nodes', () => this.core.listNode())).items;
  }

  /** Whether the namespace exists; undefined when the credentials may not look (namespaces are cluster-wide). */
  async namespaceExists(name: string): Promise<boolean | undefined> {
    try {
      const found = await this.absent(() =>
        this.call(`read Namespace ${name}`, () => this.core.readNamespace({ name })),
      );
      return found !== undefined;
    } catch (error) {
      if (error instanceof ClusterError && error.code === 403) return undefined;
      throw error;
    }
  }

  /** The Secret, or undefined when there is none. */
  secret(namespace: string, name: string): Promise<V1Secret | undefined> {
    const what = `read Secret ${name} in namespace ${namespace}`;
    return this.absent(() => this.call(what, () => this.core.readNamespacedSecret({ name, namespace })));
  }

  /** Creates the Secret; false when one of that name exists (it is left as it is). */
  async createSecret(namespace: string, body: V1Secret): Promise<boolean> {
    const what = `create Secret ${body.metadata?.name} in namespace ${namespace}`;
    try {
      await this.call(what, () => this.core.createNamespacedSecret({ namespace, body }));
      return true;
    } catch (error) {
      if (error instanceof ClusterError && error.code === 409) return false;
      throw error;
    }
  }

  private async absent<T>(work: () => Promise<T>): Promise<T | undefined> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ClusterError && error.code === 404) return undefined;
      throw error;
    }
  }

  private async call<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof this.client.ApiException) {
        const status = statusOf(error.body);
        const reason = status.reason ?? `HTTP ${error.code}`;
        throw new ClusterError(error.code, `${what}: ${reason} (${error.code}): ${status.message ?? error.message}`);
      }
      const cause = (error as Error).message;
      throw new ClusterError(0, `${what}: the Kubernetes API at ${this.server} did not answer: ${cause}`);
    }
  }
}

/** A refusal of the Kubernetes API (code 0: it did not answer). */
export class ClusterError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'ClusterError';
  }
}

function statusOf(body: unknown): { reason?: string; message?: string } {
  let parsed = body;
  if (typeof body === 'string') {
    try {
      parsed = JSON.parse(body);
    } catch {
      return {};
    }
  }
  if (typeof parsed !== 'object' || parsed === null) return {};
  const { reason, message } = parsed as Record<string, unknown>;
  return {
    reason: typeof reason === 'string' ? reason : undefined,
    message: typeof message === 'string' ? message : undefined,
  };
}
