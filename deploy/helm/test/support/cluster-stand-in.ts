import { writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** Every kind the chart renders, by group version: its resource name and whether it is namespaced (discovery). */
const RESOURCES: Record<string, Record<string, [string, boolean]>> = {
  v1: {
    Namespace: ['namespaces', false],
    Secret: ['secrets', true],
    ConfigMap: ['configmaps', true],
    Service: ['services', true],
    ServiceAccount: ['serviceaccounts', true],
  },
  'apps/v1': { Deployment: ['deployments', true], StatefulSet: ['statefulsets', true] },
  'batch/v1': { Job: ['jobs', true] },
  'networking.k8s.io/v1': { Ingress: ['ingresses', true], NetworkPolicy: ['networkpolicies', true] },
  'policy/v1': { PodDisruptionBudget: ['poddisruptionbudgets', true] },
  'rbac.authorization.k8s.io/v1': {
    Role: ['roles', true],
    RoleBinding: ['rolebindings', true],
    ClusterRole: ['clusterroles', false],
    ClusterRoleBinding: ['clusterrolebindings', false],
  },
};

/** Data of a Secret as the tests give it: key -> plain text (the stand-in serves it base64-encoded). */
export type SecretData = Record<string, string>;

/**
 * A Kubernetes API on loopback, not a cluster: what `helm template --dry-run=server` asks when the chart's `lookup`
 * runs (discovery, the release namespace, Secrets by name), so the install-time secret checks can be tested here.
 * Anything else is a 404 Status.
 */
export class ClusterStandIn {
  readonly secrets = new Map<string, SecretData>();

  private constructor(
    private readonly server: Server,
    readonly namespace: string,
  ) {}

  static async start(namespace: string): Promise<ClusterStandIn> {
    const served: { by?: ClusterStandIn } = {};
    const server = createServer((request, response) => {
      const send = (code: number, body: object) => {
        response.writeHead(code, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      const path = new URL(request.url ?? '/', 'http://stand-in').pathname;
      const answer = served.by?.answer(path);
      if (answer) return send(200, answer);
      send(404, {
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        reason: 'NotFound',
        code: 404,
        message: `${path} not found`,
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    served.by = new ClusterStandIn(server, namespace);
    return served.by;
  }

  private answer(path: string): object | undefined {
    if (path === '/version') return { major: '1', minor: '33', gitVersion: 'v1.33.0' };
    if (path === '/api') return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [] };
    if (path === '/apis') {
      const groups = Object.keys(RESOURCES)
        .filter((groupVersion) => groupVersion.includes('/'))
        .map((groupVersion) => {
          const version = { groupVersion, version: groupVersion.split('/')[1] };
          return { name: groupVersion.split('/')[0], versions: [version], preferredVersion: version };
        });
      return { kind: 'APIGroupList', apiVersion: 'v1', groups };
    }
    const groupVersion = path.match(/^\/apis?\/(.+)$/)?.[1];
    const kinds = groupVersion === undefined ? undefined : RESOURCES[groupVersion];
    if (groupVersion && kinds) {
      const resources = Object.entries(kinds).map(([kind, [name, namespaced]]) => ({
        name,
        singularName: kind.toLowerCase(),
        namespaced,
        kind,
        verbs: ['get', 'list', 'create', 'update', 'delete'],
      }));
      return { kind: 'APIResourceList', groupVersion, resources };
    }
    if (path === `/api/v1/namespaces/${this.namespace}`) {
      return { apiVersion: 'v1', kind: 'Namespace', metadata: { name: this.namespace } };
    }
    const secret = path.match(new RegExp(`^/api/v1/namespaces/${this.namespace}/secrets/([^/]+)$`))?.[1];
    const data = secret === undefined ? undefined : this.secrets.get(secret);
    if (!data) return undefined;
    const encoded = Object.fromEntries(
      Object.entries(data).map(([key, value]) => [key, Buffer.from(value).toString('base64')]),
    );
    return { apiVersion: 'v1', kind: 'Secret', metadata: { name: secret, namespace: this.namespace }, data: encoded };
  }

  /** A kubeconfig naming this stand-in, written into `dir`: its path. */
  kubeconfig(dir: string): string {
    const { port } = this.server.address() as AddressInfo;
    const file = join(dir, 'kubeconfig');
    writeFileSync(
      file,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'stand-in', cluster: { server: `http://127.0.0.1:${port}` } }],
        users: [{ name: 'tests', user: { token: 'stand-in' } }],
        contexts: [{ name: 'stand-in', context: { cluster: 'stand-in', user: 'tests', namespace: this.namespace } }],
        'current-context': 'stand-in',
      }),
      { mode: 0o600 },
    );
    return file;
  }

  close(): Promise<void> {
    return new Promise((done) => this.server.close(() => done()));
  }
}
