import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { POSTGRES_SERVER, dropDatabases, onPostgres } from '../../../packages/app-server/test/support/databases.ts';
import { type TestS3Server, startS3Server } from '../../../packages/app-server/test/support/s3-server.ts';
import { until } from '../../../packages/app-server/test/support/until.ts';
import { parseSecrets } from '../../../packages/cli/test/install-support.ts';
import { runCli } from '../../../packages/cli/test/io.ts';
import { objectsOf, validateAll } from '../../../packages/runtime/test/kubernetes/support/kube-fixture.ts';
import { KubeStandIn } from '../../../packages/runtime/test/kubernetes/support/kube-stand-in.ts';
import { type ChartRun, chartRun } from './support/chart-run.ts';
import { type KubeObject, find, render } from './support/helm.ts';
import { env, podLabels, podSpec } from './support/objects.ts';
import { allows, grantsOf } from './support/rbac.ts';
import { type RedisServer, startRedis } from './support/redis-server.ts';

/**
 * What the chart renders for the app server, its migration step (the `migrate` init container) and the runtime API,
 * run as processes (see support/chart-run.ts for the translation from pod to process) against the real PostgreSQL,
 * a Redis asking the chart's password, an S3-protocol server checking the chart's credentials (s3rver), and, for
 * the runtime API's Kubernetes backend, the Kubernetes API stand-in of the runtime's tests (objects validated against
 * the Kubernetes schemas; pods become Ready there, but nothing runs in them). A conversation started over the app's
 * API goes as far as the stand-in allows: its sandbox RUNNING in the runtime API, its pod on the stand-in.
 */
const NAMESPACE = 'bosun';
const SANDBOX_NAMESPACE = 'bosun-sandboxes';
const STORAGE_CLASS = 'standard';
const suffix = randomBytes(5).toString('hex');
const APP_DATABASE = `bosun_chart_${suffix}`;
const POSTGRES = new URL(POSTGRES_SERVER);
const DATABASE = {
  host: POSTGRES.hostname,
  port: Number(POSTGRES.port || 5432),
  user: decodeURIComponent(POSTGRES.username) || 'postgres',
};

let dir: string;
let s3: TestS3Server;
let redis: RedisServer;
let standIn: KubeStandIn;
let objects: KubeObject[];
let secrets: Map<string, Record<string, string>>;
let run: ChartRun;
/** The runtime's id of the conversation's sandbox. */
let runtimeId: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bosun-chart-run-'));
  // The pods' users (not this process's) reach their volumes under it.
  await chmod(dir, 0o711);
  const redisPassword = randomBytes(16).toString('hex');
  [s3, redis] = await Promise.all([startS3Server('bosun-chart'), startRedis(redisPassword, dir)]);
  const values = join(dir, 'values.yaml');
  await writeFile(
    values,
    stringify({
      postgresql: { enabled: false },
      externalDatabase: { ...DATABASE, database: APP_DATABASE, sslMode: 'disable' },
      redis: { enabled: false },
      externalRedis: { host: '127.0.0.1', port: redis.port },
      seaweedfs: { enabled: false },
      filestore: { ephemeral: false, bucket: s3.bucket, endpoint: s3.endpoint },
      env: { LITELLM_DEFAULT_MODEL: 'replay' },
      litellm: { proxy_config: { model_list: [{ model_name: 'replay', litellm_params: { model: 'openai/replay' } }] } },
      'runtime-api': { env: { STORAGE_CLASS } },
    }),
  );
  objects = await render(['-f', values], { yaml: '1.1' });
  // The Secrets as an operator makes them: `bosun install secrets` with the same values, its placeholders replaced
  // by what only the operator knows (here: the services just started; the database trusts loopback).
  const known: Record<string, Record<string, string>> = {
    'postgres-password': { password: randomBytes(12).toString('hex') },
    redis: { 'redis-password': redisPassword },
    'object-store': { 'access-key-id': s3.accessKeyId, 'secret-access-key': s3.secretAccessKey },
  };
  const printed = parseSecrets((await runCli(['install', 'secrets', '-n', NAMESPACE, '-f', values])).stdout);
  secrets = new Map(
    printed.map((secret) => [secret.metadata.name, { ...secret.stringData, ...known[secret.metadata.name] }]),
  );
  for (const [name, data] of secrets) {
    for (const [key, value] of Object.entries(data)) expect(value, `${name} ${key}`).not.toMatch(/^REPLACE-ME/);
  }
  standIn = await KubeStandIn.start(
    [find(objects, 'Namespace', SANDBOX_NAMESPACE).metadata.name, NAMESPACE],
    [STORAGE_CLASS],
  );
  // What the chart puts in the sandbox namespace that the stand-in serves: its default-deny NetworkPolicy.
  for (const object of objects.filter((o) => o.metadata.namespace === SANDBOX_NAMESPACE && o.kind === 'NetworkPolicy'))
    standIn.put(object as Parameters<KubeStandIn['put']>[0]);
  run = await chartRun({ objects, namespace: NAMESPACE, secrets, standIn, dir: join(dir, 'pods') });
}, 180_000);

afterAll(async () => {
  await run?.stop();
  await standIn?.close();
  await Promise.all([s3?.stop(), redis?.stop()]);
  await dropDatabases([APP_DATABASE]);
  if (dir) await rm(dir, { recursive: true, force: true });
}, 180_000);

describe('the chart run as processes', () => {
  it('migrates the database with the init container, creating it: the schema is then up to date', async () => {
    const migrated = await run.container('bosun', 'migrate');
    expect(migrated.code, migrated.output).toBe(0);
    expect(migrated.output).toMatch(/Applied \d+ migrations? to postgres:/);
    const check = await run.container('bosun', 'migrate', ['migrate', '--check']);
    expect(check.code, check.output).toBe(0);
    const ledger = await onPostgres(APP_DATABASE, (client) =>
      client.query('SELECT count(*) FROM bosun_schema_migrations'),
    );
    expect(Number(ledger.rows[0].count)).toBeGreaterThan(5);
  }, 180_000);

  it('starts the runtime API on its Kubernetes backend over the stand-in, taking the key the chart mounts', async () => {
    const runtime = await run.server('bosun-runtime-api', 'runtime-api');
    const health = await (await fetch(`${runtime.url}/health`)).json();
    expect(health).toMatchObject({ status: 'ok', backend: 'kubernetes' });
    const key = secrets.get('default-api-key')?.['default-api-key'] ?? '';
    const list = (apiKey: string) => fetch(`${runtime.url}/list`, { headers: { 'X-API-Key': apiKey } });
    expect((await list(key)).status).toBe(200);
    expect((await list(`${key}-not`)).status).toBe(401);
  }, 180_000);

  it('starts the app server ready on them: PostgreSQL, Redis and S3 as the chart names them, and the runtime API', async () => {
    const app = await run.server('bosun', 'app');
    // What it uses, as it says at start (an unset setting would be SQLite, the in-process cache, objects on disk):
    const { user, host, port } = DATABASE;
    expect(app.output()).toContain(`Database: PostgreSQL postgres://${user}:***@${host}:${port}/${APP_DATABASE}?`);
    expect(app.output()).toContain(`Cache: Redis redis://:***@127.0.0.1:${redis.port}`);
    expect(app.output()).toContain(`Objects: S3 bucket ${s3.bucket} at ${s3.endpoint}`);
    // ... and each answers with the chart's credentials (Redis asks its password, s3rver checks each signature).
    const ready = await (await fetch(`${app.url}/ready`)).json();
    expect(ready).toMatchObject({
      status: 'ready',
      checks: { database: 'ok', cache: 'ok', objects: 'ok', sandboxes: 'ok' },
      sandboxes: { backend: 'kubernetes' },
    });
  }, 180_000);

  it("starts a conversation through the app's API: its sandbox RUNNING in the runtime API, asked with the chart's key", async () => {
    const app = run.servers.get('app')?.url;
    // An API key of the install's owner, made as an operator would: `bosun api-key create` in the app's container.
    const created = await run.container('bosun', 'app', ['api-key', 'create']);
    expect(created.code, created.output).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^sk-bosun-[A-Za-z0-9]{20,}$/);
    const call = async (path: string, body?: unknown) => {
      const response = await fetch(`${app}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, text, body: text ? JSON.parse(text) : undefined };
    };
    const started = await call('/api/v1/app-conversations', {
      initial_message: { content: [{ type: 'text', text: 'Hello from the chart.' }], run: true },
    });
    expect(started.status, started.text).toBe(200);
    type Task = { status: string; sandbox_id: string | null; detail: string | null };
    const task = await until(
      async () => ((await call(`/api/v1/app-conversations/start-tasks?ids=${started.body.id}`)).body as Task[])[0],
      (found) => found?.status === 'READY' || found?.status === 'ERROR',
      'the start settled',
      100_000,
    );
    // As far as the stand-in goes: its sandbox started, then the app turned to the sandbox's agent server, which
    // nothing runs there (the start would be READY in a cluster).
    expect(task?.status).toBe('ERROR');
    expect(task?.detail).toMatch(/^The sandbox’s agent server failed/);
    const sandboxId = task?.sandbox_id as string;

    // The app's row names the runtime's sandbox; the runtime API answers for it with the key the chart gives the app.
    const row = await onPostgres(APP_DATABASE, (client) =>
      client.query('SELECT runtime_id FROM sandboxes WHERE id = $1', [sandboxId]),
    );
    runtimeId = row.rows[0]?.runtime_id as string;
    expect(runtimeId).toMatch(/^[0-9a-f]{32}$/);
    const runtime = run.servers.get('runtime-api')?.url;
    const appKey = secrets.get('sandbox-api-key')?.['sandbox-api-key'] ?? '';
    const answer = await fetch(`${runtime}/sessions/${sandboxId}`, { headers: { 'X-API-Key': appKey } });
    const settings = env(containerOf(objects, 'bosun-runtime-api', 'runtime-api'), 'BOSUN_KUBERNETES') ?? '{}';
    const pattern = JSON.parse(settings).runtime_url_pattern as string;
    expect(await answer.json()).toMatchObject({
      runtime_id: runtimeId,
      status: 'running',
      url: pattern.replace('{runtime_id}', runtimeId),
    });
  }, 180_000);

  it("made the sandbox's objects valid, with the chart's image, network and RBAC", () => {
    const sandbox = objectsOf(standIn, runtimeId);
    const pods = sandbox.get('Pod') ?? [];
    expect(pods).toHaveLength(1);
    // The stand-in validated each object on create (kubernetes-models, the API server's name rules); again here.
    expect(validateAll(standIn)).toBeGreaterThan(6);
    const app = containerOf(objects, 'bosun', 'app');
    expect(pods[0]).toMatchObject({
      metadata: { namespace: SANDBOX_NAMESPACE },
      spec: { containers: [{ name: 'agent-server', image: app.image, imagePullPolicy: app.imagePullPolicy }] },
    });
    // Its NetworkPolicy lets it reach the app's and the model proxy's pods, labels and ports as the chart renders them.
    const egress = ((sandbox.get('NetworkPolicy') ?? [])[0]?.spec as { egress?: EgressRule[] } | undefined)?.egress;
    for (const [workload, name] of [
      ['bosun', 'app'],
      ['bosun-litellm', 'litellm'],
    ] as const) {
      const port = containerOf(objects, workload, name).ports?.find((p) => p.name === 'http')?.containerPort;
      const labels = podLabels(find(objects, 'Deployment', workload));
      expect(reaches(egress ?? [], labels, port ?? 0), `${workload} on ${port}`).toBe(true);
    }
    // Every request the runtime API made is one the chart's RBAC grants its service account.
    const account = podSpec(find(objects, 'Deployment', 'bosun-runtime-api'))?.serviceAccountName ?? '';
    const grants = grantsOf(objects, NAMESPACE, account);
    const requests = standIn.requests.flatMap(({ rule, path, method }) => (rule ? [{ rule, path, method }] : []));
    expect(requests.length).toBeGreaterThan(5);
    for (const { rule, path, method } of requests) {
      const name = ['get', 'update', 'delete'].includes(rule.verb) ? path.split('/').at(-1) : undefined;
      expect(allows(grants, { ...rule, name }), `${method} ${path}`).toBe(true);
    }
  });

  it('wrote none of the secrets it was given to its output', () => {
    const given = [...secrets.values()].flatMap((data) => Object.values(data)).filter((value) => value.length >= 12);
    expect(given.length).toBeGreaterThan(5);
    for (const output of run.outputs()) for (const secret of given) expect(output).not.toContain(secret);
  });
});

const containerOf = (rendered: readonly KubeObject[], workload: string, name: string) => {
  const pod = podSpec(find(rendered, 'Deployment', workload));
  const container = [...(pod?.initContainers ?? []), ...(pod?.containers ?? [])].find((c) => c.name === name);
  if (!container) throw new Error(`Deployment ${workload} has no container ${name}`);
  return container;
};

type EgressRule = {
  to?: {
    namespaceSelector?: { matchLabels?: Record<string, string> };
    podSelector?: { matchLabels?: Record<string, string> };
  }[];
  ports?: { port?: number | string }[];
};

/** Whether an egress rule admits pods of the release namespace with these labels on this port. */
function reaches(rules: readonly EgressRule[], labels: Record<string, string>, port: number): boolean {
  return rules.some(
    (rule) =>
      (rule.ports ?? []).some((allowed) => allowed.port === port) &&
      (rule.to ?? []).some(
        (peer) =>
          peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === NAMESPACE &&
          Object.entries(peer.podSelector?.matchLabels ?? {}).every(([key, value]) => labels[key] === value),
      ),
  );
}
