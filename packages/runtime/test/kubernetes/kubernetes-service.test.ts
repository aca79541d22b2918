import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningRuntimeApi, RuntimeApiConfig, RuntimeApiStartError, startRuntimeApi } from '@bosun/runtime';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { objectsOf, settingsFor, startStandIn, validateAll } from './support/kube-fixture.ts';
import type { KubeStandIn } from './support/kube-stand-in.ts';

const API_KEY = 'runtime-service-kubernetes-key-0123456789';

describe('the runtime API service with runtime_backend kubernetes', () => {
  let standIn: KubeStandIn;
  let dir: string;
  let kubeconfig: string;

  const configOf = (kubernetes: Record<string, unknown> | undefined, extra: object = {}): RuntimeApiConfig =>
    Value.Default(RuntimeApiConfig, {
      host: '127.0.0.1',
      port: 0,
      data_dir: join(dir, 'data'),
      runtime_api_key: API_KEY,
      runtime_backend: 'kubernetes',
      log_level: 'warn',
      ...(kubernetes ? { kubernetes } : {}),
      ...extra,
    }) as RuntimeApiConfig;

  beforeAll(async () => {
    standIn = await startStandIn();
    dir = await mkdtemp(join(tmpdir(), 'bosun-kube-service-'));
    kubeconfig = join(dir, 'kubeconfig.json');
    await writeFile(kubeconfig, standIn.kubeConfig().exportConfig());
  });

  afterAll(async () => {
    await standIn?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('starts sandboxes as pods of the configured namespace, through its HTTP API', async () => {
    let service: RunningRuntimeApi | undefined;
    try {
      service = await startRuntimeApi(configOf({ ...settingsFor(standIn), kubeconfig }));
      const headers = { 'x-api-key': API_KEY, 'content-type': 'application/json' };
      const health = await fetch(`${service.url}/health`).then((response) => response.json());
      expect(health).toMatchObject({ backend: 'kubernetes', isolated: true });
      const started = await fetch(`${service.url}/start`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ session_id: 'service-conversation' }),
      });
      const info = (await started.json()) as { runtime_id: string; status: string };
      expect(started.status).toBe(200);
      expect(info.status).toBe('running');
      expect(objectsOf(standIn, info.runtime_id).get('Pod')).toHaveLength(1);
      expect(validateAll(standIn)).toBeGreaterThan(0);
    } finally {
      await service?.close();
    }
  });

  it('pauses an idle sandbox after idle_seconds', async () => {
    let service: RunningRuntimeApi | undefined;
    try {
      service = await startRuntimeApi(configOf({ ...settingsFor(standIn), kubeconfig }, { idle_seconds: 1 }));
      const headers = { 'x-api-key': API_KEY, 'content-type': 'application/json' };
      const body = JSON.stringify({ session_id: 'service-idle' });
      const started = await fetch(`${service.url}/start`, { method: 'POST', headers, body });
      const { runtime_id: id } = (await started.json()) as { runtime_id: string };
      let info: { status: string; status_detail: string | null } | undefined;
      // PAUSED from the root's change on; its pod is deleted right after.
      for (let tries = 0; info?.status !== 'paused' || objectsOf(standIn, id).has('Pod'); tries++) {
        expect(tries, JSON.stringify(info)).toBeLessThan(300);
        await new Promise((resolve) => setTimeout(resolve, 50));
        const answer = await fetch(`${service.url}/sessions/service-idle`, { headers });
        info = (await answer.json()) as typeof info;
      }
      expect(info.status_detail).toMatch(/^paused by the runtime: idle for 1 s/);
      expect(objectsOf(standIn, id).has('PersistentVolumeClaim')).toBe(true);
    } finally {
      await service?.close();
    }
  });

  it('keeps a warm pool of warm_pool_size and answers it at /api/warm-runtime-configs', async () => {
    let service: RunningRuntimeApi | undefined;
    try {
      const extra = { warm_pool_size: 1, warm_pool_environment: ['POOL_MARK=warm-secret'] };
      service = await startRuntimeApi(configOf({ ...settingsFor(standIn), kubeconfig }, extra));
      const headers = { 'x-api-key': API_KEY, 'content-type': 'application/json' };
      const configs = await fetch(`${service.url}/api/warm-runtime-configs`, { headers });
      expect(configs.status).toBe(200);
      const body = (await configs.json()) as { configs: object[] };
      expect(body.configs).toEqual([
        {
          name: 'default',
          count: 1,
          command: ['bosun'],
          working_dir: '/workspace',
          environment_keys: ['POOL_MARK'],
          resource_factor: 1,
          image: 'ghcr.io/bosun/bosun:test',
          run_as_user: 10001,
          run_as_group: 10001,
          network: { mode: 'none' },
        },
      ]);
      expect(JSON.stringify(body)).not.toContain('warm-secret');
      const unauthorized = await fetch(`${service.url}/api/warm-runtime-configs`);
      expect(unauthorized.status).toBe(401);

      let health: { warm?: Record<string, number> } = {};
      for (let tries = 0; health.warm?.default !== 1; tries++) {
        expect(tries).toBeLessThan(300);
        await new Promise((resolve) => setTimeout(resolve, 50));
        health = (await fetch(`${service.url}/health`).then((response) => response.json())) as typeof health;
      }
      const waiting = standIn.store
        .all()
        .find(({ object }) => object.metadata.labels?.['bosun.dev/warm-pool'] === 'default')!;
      const claim = JSON.stringify({ session_id: 'service-warm', environment: { POOL_MARK: 'warm-secret' } });
      const started = await fetch(`${service.url}/start`, { method: 'POST', headers, body: claim });
      const info = (await started.json()) as { runtime_id: string; status: string; session_id: string };
      expect(info).toMatchObject({ status: 'running', session_id: 'service-warm' });
      expect(info.runtime_id).toBe(waiting.object.metadata.labels?.['bosun.dev/runtime-id']);
    } finally {
      await service?.close();
    }
  });

  it('refuses to start without the kubernetes settings, or with a bad one, naming it', async () => {
    await expect(startRuntimeApi(configOf(undefined))).rejects.toThrow(RuntimeApiStartError);
    await expect(startRuntimeApi(configOf(undefined))).rejects.toThrow(/runtime_backend kubernetes: .*kubernetes/);
    await expect(
      startRuntimeApi(configOf({ ...settingsFor(standIn), kubeconfig, namespace: 'Bad_Name' })),
    ).rejects.toThrow(/runtime_backend kubernetes: kubernetes runtime: namespace/);
  });
});
