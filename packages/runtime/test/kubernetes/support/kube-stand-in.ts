import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { DEFAULT_VERSION, clusterInfo } from './cluster-info.ts';
import { type Behaviour, ClusterSimulation } from './cluster-simulation.ts';
import { startIngressController } from './ingress-controller.ts';
import { KINDS, type Kind, type KubeObject, matchesSelector, metadataProblem } from './kinds.ts';
import { ObjectStore } from './object-store.ts';
import { SimulatedAgents } from './simulated-agents.ts';
import { type Verb, notFound, readJson, schemaProblem, send, status, verbOf, withSecretData } from './wire.ts';

/** A refusal to give instead of serving a request (RBAC's 403, a racing 409...), `times` times. */
export interface Fault {
  verb: Verb;
  resource: string;
  code: number;
  reason: string;
  message: string;
  times: number;
}

/** A request as it came, and what RBAC would call it (none for discovery or a path the stand-in does not serve). */
export interface KubeRequest {
  method: string;
  path: string;
  discovery: boolean;
  rule?: { apiGroup: string; resource: string; verb: Verb; namespace: string | undefined };
}

const TOKEN = 'stand-in-token';

/**
 * A Kubernetes API stand-in on loopback for tests: the real REST paths (`/api/v1/namespaces/{ns}/pods`,
 * `/apis/networking.k8s.io/v1/...`), discovery, `kind: Status` errors with reason and code, resourceVersion
 * (conflicts on replace), `?watch=true` streams, label and name selectors, owner-reference cascades; every object
 * written is validated with kubernetes-models (the Kubernetes schemas) and the API server's name and label rules.
 * Its cluster side is simulated (see ClusterSimulation), with an ingress controller on its own port.
 */
export class KubeStandIn {
  readonly store = new ObjectStore();
  readonly simulation = new ClusterSimulation(this.store);
  /** The agent servers behind its pods: what they say of their activity (`event`, `setRunning`). */
  readonly agents = new SimulatedAgents(this.store);
  readonly namespaces = new Set<string>();
  readonly faults: Fault[] = [];
  /** What `GET /version` answers. */
  version = DEFAULT_VERSION;
  /** Every request served or refused, in order (what the runtime's Role must allow). */
  readonly requests: KubeRequest[] = [];
  /** Called before each create is served (a test may put a squatter of that name there). */
  beforeCreate: ((object: KubeObject) => void) | undefined;
  private readonly watches = new Set<ServerResponse>();

  private readonly server = createServer((request, response) => void this.handle(request, response));
  private ingress: Server | undefined;
  /** `host:port` of its ingress controller (the runtime's `probe_address`). */
  ingressAddress = '';

  private constructor() {}

  static async start(namespaces: string[], storageClasses: string[]): Promise<KubeStandIn> {
    const standIn = new KubeStandIn();
    for (const namespace of namespaces) standIn.namespaces.add(namespace);
    for (const name of storageClasses) {
      const provisioner = 'stand-in.bosun.dev';
      standIn.put({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name }, provisioner });
    }
    const controller = await startIngressController(standIn.store, standIn.agents);
    standIn.ingress = controller.server;
    standIn.ingressAddress = controller.address;
    await new Promise<void>((resolve) => standIn.server.listen(0, '127.0.0.1', resolve));
    return standIn;
  }

  get behaviour(): Behaviour {
    return this.simulation.behaviour;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** A client configuration for it (token authentication). */
  kubeConfig(): KubeConfig {
    const config = new KubeConfig();
    config.loadFromOptions({
      clusters: [{ name: 'stand-in', server: this.url, skipTLSVerify: true }],
      users: [{ name: 'runtime', token: TOKEN }],
      contexts: [{ name: 'stand-in', cluster: 'stand-in', user: 'runtime' }],
      currentContext: 'stand-in',
    });
    return config;
  }

  /** Puts an object in directly (another actor's: a squatter, a storage class), validated like any other. */
  put(object: KubeObject): KubeObject {
    const kind = KINDS.find((candidate) => candidate.kind === object.kind)!;
    kind.validate(object);
    return this.store.add(kind, object);
  }

  /** Deletes an object as another actor would (its dependents go with it). */
  remove(kindName: string, namespace: string, name: string): void {
    const kind = KINDS.find((candidate) => candidate.kind === kindName)!;
    this.store.remove(kind, namespace, name, KINDS);
  }

  fail(fault: Omit<Fault, 'times'> & { times?: number }): void {
    this.faults.push({ times: 1, ...fault });
  }

  async close(): Promise<void> {
    for (const response of this.watches) response.end();
    this.simulation.close();
    const servers = [this.server, this.ingress].filter((server) => server !== undefined);
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    if (request.headers.authorization !== `Bearer ${TOKEN}`)
      return status(response, 401, 'Unauthorized', 'Unauthorized');
    const discovery = /^\/(api\/v1|apis\/[^/]+\/[^/]+)$/.exec(url.pathname);
    const seen: KubeRequest = { method: request.method ?? 'GET', path: url.pathname, discovery: Boolean(discovery) };
    this.requests.push(seen);
    if (discovery && request.method === 'GET') return this.discover(response, discovery[1]!.replace(/^apis?\//, ''));
    const info = clusterInfo(seen.method, url.pathname, this.namespaces, this.version);
    if (info === null)
      return status(response, 404, 'NotFound', `namespaces "${url.pathname.split('/').at(-1)}" not found`);
    if (info) return send(response, 200, info);
    const route = /^\/(?:api\/(v1)|apis\/([^/]+\/[^/]+))(?:\/namespaces\/([^/]+))?\/([^/]+)(?:\/([^/]+))?$/.exec(
      url.pathname,
    );
    const kind = route && KINDS.find((k) => k.groupVersion === (route[1] ?? route[2]) && k.resource === route[4]);
    if (!route || !kind || Boolean(route[3]) !== kind.namespaced) {
      return status(response, 404, 'NotFound', 'the server could not find the requested resource');
    }
    const [namespace, name] = [route[3], route[5]];
    const verb = verbOf(request.method ?? 'GET', name, url.searchParams.get('watch') === 'true');
    if (!verb) return status(response, 405, 'MethodNotAllowed', `${request.method} is not supported here`);
    seen.rule = { apiGroup: kind.groupVersion.split('/').at(-2) ?? '', resource: kind.resource, verb, namespace };
    const fault = this.faults.find((candidate) => candidate.verb === verb && candidate.resource === kind.resource);
    if (fault) {
      if (--fault.times <= 0) this.faults.splice(this.faults.indexOf(fault), 1);
      return status(response, fault.code, fault.reason, fault.message);
    }
    if (namespace && !this.namespaces.has(namespace)) {
      return status(response, 404, 'NotFound', `namespaces "${namespace}" not found`);
    }
    const body = verb === 'create' || verb === 'update' ? await readJson(request) : undefined;
    switch (verb) {
      case 'get': {
        const found = this.store.get(kind, namespace, name!);
        return found ? send(response, 200, found) : notFound(response, kind, name!);
      }
      case 'list':
        return send(response, 200, {
          apiVersion: kind.groupVersion,
          kind: `${kind.kind}List`,
          metadata: { resourceVersion: this.store.resourceVersion },
          items: this.select(kind, namespace, url.searchParams),
        });
      case 'watch':
        return this.watch(response, kind, namespace, url.searchParams);
      case 'create':
      case 'update':
        return this.write(response, kind, namespace, name, body as KubeObject, verb);
      case 'delete': {
        const removed = this.store.remove(kind, namespace, name!, KINDS);
        if (!removed) return notFound(response, kind, name!);
        return send(response, 200, {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Success',
          details: { name, kind: kind.resource, uid: removed.metadata.uid },
        });
      }
    }
  }

  private discover(response: ServerResponse, groupVersion: string) {
    const resources = KINDS.filter((kind) => kind.groupVersion === groupVersion);
    if (resources.length === 0)
      return status(response, 404, 'NotFound', 'the server could not find the requested resource');
    send(response, 200, {
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion,
      resources: resources.map((kind) => ({
        name: kind.resource,
        singularName: kind.kind.toLowerCase(),
        namespaced: kind.namespaced,
        kind: kind.kind,
        verbs: ['create', 'delete', 'get', 'list', 'update', 'watch'],
      })),
    });
  }

  private select(kind: Kind, namespace: string | undefined, query: URLSearchParams): KubeObject[] {
    const fields = Object.fromEntries(
      (query.get('fieldSelector') ?? '')
        .split(',')
        .filter(Boolean)
        .map((term) => term.split('=')),
    );
    return this.store
      .list(kind, namespace)
      .filter((object) => matchesSelector(object.metadata.labels, query.get('labelSelector')))
      .filter((object) => !fields['metadata.name'] || object.metadata.name === fields['metadata.name'])
      .map(({ apiVersion: _version, kind: _kind, ...item }) => item as KubeObject);
  }

  private watch(response: ServerResponse, kind: Kind, namespace: string | undefined, query: URLSearchParams): void {
    const from = Number(query.get('resourceVersion') ?? this.store.resourceVersion);
    const selector = query.get('labelSelector');
    response.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    response.flushHeaders();
    this.watches.add(response);
    const wanted = (event: { kind: Kind; object: KubeObject }) =>
      event.kind === kind &&
      event.object.metadata.namespace === namespace &&
      matchesSelector(event.object.metadata.labels, selector);
    const sendEvent = (event: { type: string; object: KubeObject }) =>
      response.write(`${JSON.stringify({ type: event.type, object: event.object })}\n`);
    for (const event of this.store.events) if (event.resourceVersion > from && wanted(event)) sendEvent(event);
    const unsubscribe = this.store.subscribe((event) => wanted(event) && sendEvent(event));
    response.on('close', () => {
      unsubscribe();
      this.watches.delete(response);
    });
  }

  private write(
    response: ServerResponse,
    kind: Kind,
    namespace: string | undefined,
    name: string | undefined,
    body: KubeObject,
    verb: 'create' | 'update',
  ) {
    if (body?.kind !== kind.kind || body.apiVersion !== kind.groupVersion) {
      return status(response, 400, 'BadRequest', `the body is not a ${kind.groupVersion} ${kind.kind}`);
    }
    if (body.metadata?.namespace && body.metadata.namespace !== namespace) {
      return status(
        response,
        400,
        'BadRequest',
        'the namespace of the object does not match the namespace of the request',
      );
    }
    const object = withSecretData({ ...body, metadata: { ...body.metadata, ...(namespace ? { namespace } : {}) } });
    const problem = metadataProblem(kind, object) ?? schemaProblem(kind, object);
    if (problem)
      return status(response, 422, 'Invalid', `${kind.kind} "${object.metadata.name}" is invalid: ${problem}`);
    if (verb === 'create') this.beforeCreate?.(object);
    const existing = this.store.get(kind, namespace, object.metadata.name);
    if (verb === 'create') {
      if (existing)
        return status(response, 409, 'AlreadyExists', `${kind.resource} "${object.metadata.name}" already exists`);
      const { status: _ignored, ...created } = object;
      return send(
        response,
        201,
        this.store.add(kind, kind.kind === 'Pod' ? { ...created, status: { phase: 'Pending' } } : created),
      );
    }
    if (!existing || name !== object.metadata.name) return notFound(response, kind, name ?? '');
    if (object.metadata.resourceVersion && object.metadata.resourceVersion !== existing.metadata.resourceVersion) {
      return status(
        response,
        409,
        'Conflict',
        `Operation cannot be fulfilled on ${kind.resource} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
      );
    }
    const { uid, creationTimestamp } = existing.metadata;
    send(
      response,
      200,
      this.store.update(kind, {
        ...object,
        metadata: { ...object.metadata, uid, creationTimestamp },
        status: existing.status,
      }),
    );
  }
}
