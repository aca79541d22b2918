import { spawnSync } from 'node:child_process';
import Fastify from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { appServerConfig } from '../../../packages/app-server/src/config.ts';
import { healthRoutes } from '../../../packages/app-server/src/http/health.ts';
import { KUBERNETES_PERMISSIONS, kubernetesConfigOf } from '../../../packages/runtime/src/index.ts';
import { SandboxUrls } from '../../../packages/runtime/src/kubernetes/sandbox-urls.ts';
import { CHART, EXAMPLE, type KubeObject, find, helm, render } from './support/helm.ts';
import { validateKubeObject } from './support/kube-schemas.ts';
import { type Container, env, ofComponent, podSpec } from './support/objects.ts';

// Each values file is rendered once (Helm runs ~1 s per render on these machines).
let defaults: KubeObject[];
let production: KubeObject[];
beforeAll(async () => {
  [defaults, production] = await Promise.all([render(), render(['-f', EXAMPLE])]);
}, 180_000);

const appOf = (objects: KubeObject[]): Container => {
  const container = podSpec(find(objects, 'Deployment', 'bosun'))?.containers.find((c) => c.name === 'app');
  if (!container) throw new Error('no app container');
  return container;
};

describe('every rendered object', () => {
  it('is valid against the Kubernetes schemas (kubernetes-models)', async () => {
    for (const object of [...defaults, ...production]) await validateKubeObject(object);
    expect(defaults.length).toBeGreaterThan(15);
  });

  it('runs non-root, without privilege escalation or capabilities, with requests and limits', () => {
    for (const object of [...defaults, ...production]) {
      const pod = podSpec(object);
      if (!pod) continue;
      expect(pod.securityContext?.runAsNonRoot, `${object.kind}/${object.metadata.name}`).toBe(true);
      for (const container of [...(pod.initContainers ?? []), ...pod.containers]) {
        const where = `${object.metadata.name}/${container.name}`;
        expect(container.resources?.requests, where).toMatchObject({
          cpu: expect.anything(),
          memory: expect.anything(),
        });
        expect(container.resources?.limits, where).toMatchObject({ cpu: expect.anything(), memory: expect.anything() });
        expect(container.securityContext, where).toMatchObject({
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'] },
        });
        expect(container.image, where).toMatch(/^[^:@]+(:[\w][\w.-]*|@sha256:[a-f0-9]{64})$/);
        expect(container.image, where).not.toMatch(/:latest$/);
      }
    }
  });
});

describe('the app server', () => {
  it('migrates in an init container (bosun migrate) and starts its replicas with --no-migrate-on-start', () => {
    const pod = podSpec(find(production, 'Deployment', 'bosun'));
    expect(pod?.initContainers?.map((c) => c.args)).toEqual([['migrate']]);
    expect(appOf(production).args).toContain('--no-migrate-on-start');
    expect(find(production, 'Deployment', 'bosun').spec).toMatchObject({ replicas: 3 });
    expect(env(pod?.initContainers?.[0] as Container, 'BOSUN_CREATE_DATABASES')).toBe('true');
  });

  it('is probed on routes the app serves: /alive and /ready answer 200', async () => {
    const app = appOf(defaults);
    const paths = [app.livenessProbe?.httpGet?.path, app.readinessProbe?.httpGet?.path];
    expect(paths).toEqual(['/alive', '/ready']);
    const server = Fastify();
    healthRoutes({
      startedAt: Date.now(),
      dependencies: {},
      sandboxRuntime: () => undefined,
      timeoutMs: 1000,
      license: async () => ({ status: 'none' }),
    })(server, { config: appServerConfig(), publicUrl: () => '' });
    for (const url of paths) expect((await server.inject({ method: 'GET', url })).statusCode, url).toBe(200);
    await server.close();
  });

  it('reads every secret from a file of a mounted Secret (BOSUN_<KEY>_FILE)', () => {
    for (const objects of [defaults, production]) {
      const pod = podSpec(find(objects, 'Deployment', 'bosun'));
      const mount = appOf(objects).volumeMounts?.find((m) => m.name === 'secrets');
      const files = (pod?.volumes?.find((v) => v.name === 'secrets')?.projected?.sources ?? []).flatMap((source) =>
        (source.secret.items ?? []).map((item) => `${mount?.mountPath}/${item.path}`),
      );
      const wanted = (appOf(objects).env ?? []).filter((v) => v.name.endsWith('_FILE')).map((v) => v.value);
      expect(wanted.length).toBeGreaterThanOrEqual(4);
      expect(files.sort()).toEqual([...wanted].sort());
    }
    const sources = podSpec(find(production, 'Deployment', 'bosun'))?.volumes?.find((v) => v.name === 'secrets');
    const names = sources?.projected?.sources.map((source) => source.secret.name);
    expect(names).toEqual(
      expect.arrayContaining(['jwt-secret', 'sandbox-api-key', 'litellm-api-key', 'keycloak-realm', 'github-app']),
    );
  });

  it('names the same hosts everywhere: the ingress, its certificate, the public URL, Keycloak at auth.<host>', () => {
    const ingress = find(production, 'Ingress', 'bosun').spec as {
      rules: { host: string }[];
      tls: { hosts: string[] }[];
    };
    expect(ingress.rules[0]?.host).toBe('bosun.example.com');
    expect(ingress.tls[0]?.hosts).toEqual(['bosun.example.com']);
    expect(env(appOf(production), 'BOSUN_PUBLIC_URL')).toBe('https://bosun.example.com');
    const auth = find(production, 'Ingress', 'bosun-keycloak').spec as { rules: { host: string }[] };
    expect(auth.rules[0]?.host).toBe('auth.bosun.example.com');
    const keycloak = podSpec(find(production, 'Deployment', 'bosun-keycloak'))?.containers[0] as Container;
    expect(env(keycloak, 'KC_HOSTNAME')).toBe('https://auth.bosun.example.com');
    const job = podSpec(find(production, 'Job', 'bosun-keycloak-realm'))?.containers[0] as Container;
    expect(env(job, 'PUBLIC_URL')).toBe('https://bosun.example.com');
  });

  it('uses the external database and S3 of the production example, the bundled ones by default', () => {
    expect(env(appOf(production), 'BOSUN_DATABASE_URL')).toBe(
      'postgres://$(DATABASE_USER):$(DATABASE_PASSWORD)@db.internal.example.com:5432/bosun?sslmode=verify-full',
    );
    expect(env(appOf(production), 'BOSUN_S3_ENDPOINT')).toBeUndefined();
    expect(env(appOf(production), 'BOSUN_S3_BUCKET')).toBe('bosun-conversations');
    expect(env(appOf(defaults), 'BOSUN_S3_ENDPOINT')).toBe('http://bosun-seaweedfs:8333');
    expect(env(appOf(defaults), 'BOSUN_DATABASE_URL')).toContain('@bosun-postgresql:5432/bosun?');
    expect(env(appOf(production), 'BOSUN_LLM_MODEL')).toBe('claude-sonnet');
    expect(env(appOf(production), 'BOSUN_LLM_BASE_URL')).toBe('http://bosun-litellm.bosun.svc.cluster.local:4000/v1');
  });
});

describe('the runtime API', () => {
  const rules = (objects: KubeObject[]) => find(objects, 'Role', 'bosun-runtime-api').rules;

  it('has a Role in the sandbox namespace only, equal to KUBERNETES_PERMISSIONS of @bosun/runtime', () => {
    const role = find(production, 'Role', 'bosun-runtime-api');
    expect(role.metadata.namespace).toBe('bosun-sandboxes');
    const expected = KUBERNETES_PERMISSIONS.filter((p) => p.scope === 'namespace').map((p) => ({
      apiGroups: [p.apiGroup],
      resources: [p.resource],
      verbs: [...p.verbs],
    }));
    expect(rules(production)).toEqual(expected);
    expect(rules(defaults)).toEqual(expected);
    const binding = find(production, 'RoleBinding', 'bosun-runtime-api');
    expect(binding).toMatchObject({
      metadata: { namespace: 'bosun-sandboxes' },
      subjects: [{ kind: 'ServiceAccount', name: 'bosun-runtime-api', namespace: 'bosun' }],
    });
  });

  it('reads one storage class cluster-wide only when STORAGE_CLASS names one, and nothing else', () => {
    expect(defaults.filter((o) => o.kind.startsWith('Cluster'))).toEqual([]);
    const clusterRole = production.find((o) => o.kind === 'ClusterRole');
    const storage = KUBERNETES_PERMISSIONS.find((p) => p.scope === 'cluster');
    expect(clusterRole?.rules).toEqual([
      { apiGroups: [storage?.apiGroup], resources: [storage?.resource], resourceNames: ['gp3'], verbs: storage?.verbs },
    ]);
  });

  it('denies everything in the sandbox namespace by default and creates it with the restricted profile', () => {
    const policy = production.find((o) => o.kind === 'NetworkPolicy');
    expect(policy).toMatchObject({
      metadata: { namespace: 'bosun-sandboxes' },
      spec: { podSelector: {}, policyTypes: ['Ingress', 'Egress'] },
    });
    expect(policy?.spec).not.toHaveProperty('ingress');
    expect(find(production, 'Namespace', 'bosun-sandboxes').metadata.labels).toMatchObject({
      'pod-security.kubernetes.io/enforce': 'restricted',
    });
  });

  it('gets Kubernetes settings agreeing with the app on the sandbox URLs', () => {
    const container = podSpec(find(production, 'Deployment', 'bosun-runtime-api'))?.containers[0] as Container;
    const settings = JSON.parse(env(container, 'BOSUN_KUBERNETES') ?? '{}');
    expect(settings).toMatchObject({
      namespace: 'bosun-sandboxes',
      app_namespace: 'bosun',
      runtime_base_url: 'runtime.example.com',
      runtime_url_separator: '-',
      runtime_url_pattern: 'https://{runtime_id}-runtime.example.com',
      runtime_disable_ssl: false,
      storage_class: 'gp3',
      ingress_tls_secret: 'wildcard-runtime-tls',
      ingress_from: [{ namespace: 'ingress-nginx' }],
    });
    expect(settings.egress.map((peer: { ports: number[] }) => peer.ports)).toEqual([[3000], [4000]]);
    const defaultSettings = JSON.parse(
      env(podSpec(find(defaults, 'Deployment', 'bosun-runtime-api'))?.containers[0] as Container, 'BOSUN_KUBERNETES') ??
        '{}',
    );
    expect(defaultSettings).not.toHaveProperty('storage_class');
    // The runtime API's own checks (the ones it runs at start) accept what the chart renders.
    for (const rendered of [settings, defaultSettings]) {
      const config = kubernetesConfigOf(rendered);
      expect(new SandboxUrls(config).urlOf('abc')).toBe(rendered.runtime_url_pattern.replace('{runtime_id}', 'abc'));
    }
    expect(container.livenessProbe?.httpGet?.path).toBe('/health');
    expect(env(appOf(production), 'BOSUN_RUNTIME_API_URL')).toBe(
      'http://bosun-runtime-api.bosun.svc.cluster.local:5000',
    );
  });

  it("gets no database nor its password: the Kubernetes backend's state is the cluster's objects", () => {
    for (const objects of [defaults, production]) {
      const container = podSpec(find(objects, 'Deployment', 'bosun-runtime-api'))?.containers[0] as Container;
      const names = (container.env ?? []).map((variable) => variable.name);
      expect(names).not.toContain('BOSUN_DATABASE_URL');
      expect(names).not.toContain('BOSUN_CREATE_DATABASES');
      const secrets = (container.env ?? []).map((variable) => variable.valueFrom?.secretKeyRef?.name);
      expect(secrets).not.toContain('postgres-password');
    }
  });

  it('has PodDisruptionBudgets, as the app has', () => {
    for (const name of ['bosun', 'bosun-runtime-api'])
      expect(find(production, 'PodDisruptionBudget', name)).toBeDefined();
  });
});

describe('the bundled components', () => {
  it('each can be disabled, leaving no object of it behind and the rest valid', async () => {
    const base = ['--set', 'keycloak.enabled=true', '--set', 'github.enabled=true'];
    const external = [
      '--set',
      'postgresql.enabled=false',
      '--set',
      'externalDatabase.host=db.example.com',
      '--set',
      'externalDatabase.user=bosun',
    ];
    const variants: [string, string[]][] = [
      ['postgresql', [...base, ...external]],
      ['redis', [...base, '--set', 'redis.enabled=false']],
      ['seaweedfs', [...base, '--set', 'seaweedfs.enabled=false', '--set', 'filestore.ephemeral=false']],
      ['keycloak', ['--set', 'keycloak.enabled=false']],
      ['litellm', [...base, '--set', 'litellm.enabled=false']],
      ['runtime-api', [...base, '--set', 'runtime-api.enabled=false']],
    ];
    const renders = await Promise.all(variants.map(([, args]) => render(args)));
    const all = await render(base);
    variants.forEach(([component], index) => {
      const objects = renders[index] as KubeObject[];
      expect(ofComponent(all, component).length, component).toBeGreaterThan(0);
      expect(ofComponent(objects, component), component).toEqual([]);
      expect(JSON.stringify(objects), component).not.toContain(`bosun-${component}:`);
    });
    for (const objects of renders) for (const object of objects) await validateKubeObject(object);
    const withoutRedis = renders[1] as KubeObject[];
    expect(env(appOf(withoutRedis), 'BOSUN_REDIS_URL')).toBeUndefined();
    const withoutLlm = renders[4] as KubeObject[];
    expect(env(appOf(withoutLlm), 'BOSUN_LLM_BASE_URL')).toBeUndefined();
  }, 180_000);

  it('pins upstream images by version and pulls by digest when one is given', async () => {
    const digest = `sha256:${'a'.repeat(64)}`;
    const objects = await render(['--set', `redis.image.digest=${digest}`, '--set', `image.digest=${digest}`]);
    const redis = podSpec(find(objects, 'Deployment', 'bosun-redis'))?.containers[0];
    expect(redis?.image).toBe(`docker.io/library/redis@${digest}`);
    expect(appOf(objects).image).toBe(`bosun@${digest}`);
  });
});

describe('the scripts and notes of the chart', () => {
  it('renders shell scripts that parse (Keycloak provisioning, the bucket Job, Redis, the object store)', async () => {
    const objects = await render(['--set', 'keycloak.enabled=true', '--set', 'github.enabled=true']);
    const provision = (find(objects, 'ConfigMap', 'bosun-keycloak-realm').data as Record<string, string>)[
      'provision.sh'
    ];
    const scripts = [provision ?? ''];
    for (const object of objects) {
      for (const container of [...(podSpec(object)?.initContainers ?? []), ...(podSpec(object)?.containers ?? [])]) {
        const command = (container as Container & { command?: string[] }).command;
        if (command?.[1] === '-c') scripts.push(command[2] ?? '');
      }
    }
    expect(scripts.length).toBeGreaterThanOrEqual(4);
    for (const script of scripts) {
      const parsed = spawnSync('bash', ['-n'], { input: script, encoding: 'utf8' });
      expect(parsed.stderr, script.slice(0, 80)).toBe('');
    }
  });

  it('says in its notes that the bundled PostgreSQL is for evaluation only, and not when the database is external', async () => {
    const notes = async (args: string[]) => {
      const install = ['install', 'bosun', CHART, '--dry-run=client', '--namespace', 'bosun', ...args];
      const run = await helm(install, { KUBECONFIG: '/nonexistent' });
      expect(run.stderr).toBe('');
      return run.stdout.slice(run.stdout.indexOf('NOTES:'));
    };
    expect(await notes([])).toContain('the bundled PostgreSQL is for proof of concept and evaluation only');
    expect(await notes(['-f', EXAMPLE])).not.toContain('PostgreSQL');
  });
});
