import { type KubernetesRuntime, type RuntimeInfoWire, buildRuntimeApi } from '@bosun/runtime';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Wire, objectsOf, openRuntime, startStandIn } from './support/kube-fixture.ts';
import type { KubeStandIn } from './support/kube-stand-in.ts';

const API_KEY = 'runtime-api-kubernetes-key-0123456789';

describe('runtime API over the Kubernetes backend', () => {
  let standIn: KubeStandIn;
  let runtime: KubernetesRuntime;
  let app: FastifyInstance;

  const call = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const response = await app.inject({
      method,
      url,
      headers: { 'x-api-key': API_KEY },
      ...(payload ? { payload } : {}),
    });
    return { status: response.statusCode, body: response.json() as Wire };
  };

  beforeAll(async () => {
    standIn = await startStandIn();
    runtime = await openRuntime(standIn);
    app = buildRuntimeApi({ runtime, apiKeys: [API_KEY] });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await runtime?.close();
    await standIn?.close();
  });

  it("answers /start with the RuntimeInfo of a running sandbox, its key being its Secret's", async () => {
    const started = await call('POST', '/start', {
      session_id: 'conversation-api',
      image: 'ghcr.io/bosun/bosun:test',
      command: 'bosun',
      working_dir: '/workspace/project',
      environment: { LOG_JSON: '1' },
      resource_factor: 1,
      run_as_user: 10001,
      run_as_group: 10001,
      fs_group: 10001,
    });
    expect(started.status).toBe(200);
    const info = started.body as RuntimeInfoWire;
    expect(info).toMatchObject({
      session_id: 'conversation-api',
      status: 'running',
      status_detail: null,
      url: `http://${info.runtime_id}.sandboxes.bosun.test`,
    });
    const secret = objectsOf(standIn, info.runtime_id).get('Secret')![0]!;
    const key = Buffer.from((secret.data as Record<string, string>).BOSUN_SESSION_API_KEYS!, 'base64').toString();
    expect(info.session_api_key).toBe(key);
    const pod = objectsOf(standIn, info.runtime_id).get('Pod')![0]!.spec as Wire;
    expect(pod.containers[0]).toMatchObject({ image: 'ghcr.io/bosun/bosun:test', workingDir: '/workspace/project' });

    await expect(call('GET', '/sessions/conversation-api')).resolves.toMatchObject({
      status: 200,
      body: { runtime_id: info.runtime_id, status: 'running' },
    });
    const listed = await call('GET', '/list');
    expect(listed.body.runtimes.map((runtime: RuntimeInfoWire) => runtime.runtime_id)).toEqual([info.runtime_id]);
    await expect(call('GET', '/health')).resolves.toMatchObject({ body: { backend: 'kubernetes', running: 1 } });

    const paused = await call('POST', '/pause', { runtime_id: info.runtime_id });
    expect(paused.body).toMatchObject({ status: 'paused', session_api_key: null });
    const resumed = await call('POST', '/resume', { runtime_id: info.runtime_id });
    expect(resumed.body.status).toBe('running');
    expect(resumed.body.session_api_key).not.toBe(info.session_api_key);
    await expect(call('POST', '/stop', { runtime_id: info.runtime_id })).resolves.toMatchObject({ status: 200 });
    await expect(call('GET', '/sessions/conversation-api')).resolves.toMatchObject({ status: 404 });
  });

  it('answers 422 naming the field for a spec the backend cannot run', async () => {
    const refused = await call('POST', '/start', {
      session_id: 'conversation-named-host',
      network: { mode: 'allow', hosts: [{ host: 'api.openai.com', port: 443 }] },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0]).toMatchObject({ loc: ['body', 'network', 'hosts'] });
    expect(refused.body.detail[0].msg).toMatch(/a NetworkPolicy allows addresses, not names/);
  });

  it("resumes with the environment and network /resume gives beside runtime_id (Bosun's), 422 for one it cannot run", async () => {
    const secret = 'resume-secret-value-3d8a';
    const started = await call('POST', '/start', { session_id: 'conversation-api-refresh', environment: { A: '1' } });
    const id = (started.body as RuntimeInfoWire).runtime_id;
    await call('POST', '/pause', { runtime_id: id });
    const named = { mode: 'allow', hosts: [{ host: 'api.openai.com', port: 443 }] };
    const refused = await call('POST', '/resume', { runtime_id: id, environment: { B: secret }, network: named });
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0]).toMatchObject({ loc: ['body', 'network', 'hosts'] });
    expect(JSON.stringify(refused.body)).not.toContain(secret);

    const network = { mode: 'allow', hosts: [{ host: '198.51.100.7', port: 8443 }] };
    const resumed = await call('POST', '/resume', { runtime_id: id, environment: { B: secret }, network });
    expect(resumed.body).toMatchObject({ runtime_id: id, status: 'running' });
    expect(JSON.stringify(resumed.body)).not.toContain(secret);
    const objects = objectsOf(standIn, id);
    const data = objects.get('Secret')![0]!.data as Record<string, string>;
    expect(Object.keys(data).sort()).toEqual(['B', 'BOSUN_SESSION_API_KEYS']);
    expect(Buffer.from(data.B!, 'base64').toString()).toBe(secret);
    expect(JSON.stringify((objects.get('NetworkPolicy')![0]!.spec as Wire).egress)).toContain('198.51.100.7/32');
  });
});
