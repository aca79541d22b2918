import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { type Server, type Socket, connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalRuntime, RemoteRuntime, buildRuntimeApi } from '@bosun/runtime';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SANDBOX_COMMAND } from '../../../../test/support/sandbox-bundle.ts';
import { appServerConfig } from '../../src/index.ts';
import { openSandboxRuntime } from '../../src/sandboxes/index.ts';
import { type TestUser, describeApi } from '../api/harness.ts';
import { streamStart } from '../conversations/support.ts';

const API_KEY = 'app-to-runtime-key-0123456789';

/** A TCP relay to `port` that can be cut: while cut, every connection is refused at once (reset). */
class Relay {
  cut = false;
  private readonly sockets = new Set<Socket>();
  readonly server: Server;

  constructor(port: number) {
    this.server = createServer((socket) => {
      if (this.cut) return socket.resetAndDestroy();
      const upstream = connect(port, '127.0.0.1');
      for (const end of [socket, upstream]) {
        this.sockets.add(end);
        end.on('close', () => this.sockets.delete(end));
        end.on('error', () => end.destroy());
      }
      socket.pipe(upstream).pipe(socket);
    });
  }

  /** Cuts the relay, dropping the connections kept alive. */
  down(): void {
    this.cut = true;
    for (const socket of this.sockets) socket.resetAndDestroy();
  }
}

const services: { local: LocalRuntime; api: FastifyInstance; relay: Relay; root: string }[] = [];
afterAll(async () => {
  for (const { local, api, relay, root } of services) {
    relay.server.close();
    await api.close();
    await local.close();
    await rm(root, { recursive: true, force: true });
  }
}, 180_000);

/*
 * The runtime service out of reach (connections refused): reads still answer, each sandbox with its last known
 * status and why, no key or URL; pause, resume and delete answer 503 with why and change nothing; a start fails with
 * the reason on its task. Once the service is back, everything goes on.
 */
describeApi(
  'sandboxes while the runtime service is out of reach',
  (api) => {
    let owner: TestUser;
    const relay = () => services.at(-1)?.relay as Relay;

    beforeAll(async () => {
      // A model is needed to start a conversation; none is called here.
      const settings = { llm_model: 'openai/never-called', llm_base_url: 'http://127.0.0.1:9', llm_api_key: 'sk-x' };
      owner = await api().user(settings);
    });

    it('answers reads with the last known status, 503 for changes, and goes on once the service is back', async () => {
      const { last } = await streamStart(api(), owner, {});
      expect(last, JSON.stringify(last)).toMatchObject({ status: 'READY' });
      const id = last.sandbox_id as string;
      const path = `/api/v1/sandboxes/${id}`;
      const seen = async () => (await api().call(`/api/v1/sandboxes?id=${id}`, { as: owner })).body[0];

      relay().down();
      const lastKnown = await seen();
      expect(lastKnown).toMatchObject({ status: 'RUNNING', session_api_key: null, exposed_urls: null });
      expect(lastKnown.status_detail).toMatch(/^last known status: the runtime API at .* cannot be reached/);
      const conversations = await api().call(`/api/v1/app-conversations?ids=${last.app_conversation_id}`, {
        as: owner,
      });
      expect(conversations.status).toBe(200);
      for (const action of ['pause', 'resume']) {
        const answer = await api().call(`${path}/${action}`, { method: 'POST', as: owner });
        expect(answer.status, action).toBe(503);
        expect(answer.body.detail).toMatch(/cannot be reached .*; nothing was changed, try again later$/);
        expect(answer.headers.get('retry-after')).toBe('10');
      }
      expect((await api().call(path, { method: 'DELETE', as: owner })).status).toBe(503);
      const started = await api().call('/api/v1/sandboxes', { method: 'POST', as: owner, body: {} });
      expect(started.status).toBe(200);
      expect(started.body).toMatchObject({ status: 'ERROR' });
      expect(started.body.status_detail).toMatch(/^the runtime did not start it: .*cannot be reached/);

      relay().cut = false;
      expect(await seen()).toMatchObject({ status: 'RUNNING', status_detail: null });
      expect((await api().call(`${path}/pause`, { method: 'POST', as: owner })).status).toBe(200);
      expect(await seen()).toMatchObject({ status: 'PAUSED' });
      expect((await api().call(path, { method: 'DELETE', as: owner })).status).toBe(200);
      expect(await api().runtime.runtime.getBySession(id)).toBeUndefined();
    });
  },
  {
    runtime: async () => {
      const root = await mkdtemp(join(tmpdir(), 'bosun-runtime-unreachable-'));
      await chmod(root, 0o711);
      const local = await LocalRuntime.open({ root, command: SANDBOX_COMMAND });
      const service = buildRuntimeApi({ runtime: local, apiKeys: [API_KEY] });
      const { port } = new URL(await service.listen({ host: '127.0.0.1', port: 0 }));
      const relay = new Relay(Number(port));
      await new Promise<void>((resolve) => relay.server.listen(0, '127.0.0.1', resolve));
      services.push({ local, api: service, relay, root });
      const address = relay.server.address() as { port: number };
      const runtime = new RemoteRuntime({ baseUrl: `http://127.0.0.1:${address.port}`, apiKey: API_KEY });
      return { runtime, embedded: false, description: 'Sandboxes: runtime service behind a relay' };
    },
  },
);

/*
 * An app on a host without bubblewrap (and isolation not turned off): it serves everything but sandboxes; a
 * conversation's start fails saying why and what to set; the sandboxes' health (the readiness probe's) fails.
 */
describeApi(
  'an app whose sandboxes cannot run (no bubblewrap)',
  (api) => {
    it('serves, and refuses each sandbox start with the reason', async () => {
      const owner = await api().user();
      const settings = { llm_model: 'openai/never-called', llm_base_url: 'http://127.0.0.1:9', llm_api_key: 'sk-x' };
      expect((await api().call('/api/v1/settings', { method: 'POST', as: owner, body: settings })).status).toBe(200);
      const answer = await api().call('/api/v1/app-conversations/stream-start', {
        method: 'POST',
        as: owner,
        body: {},
      });
      expect(answer.status).toBe(200);
      const last = (answer.body as { status: string; detail: string }[]).at(-1);
      expect(last?.status).toBe('ERROR');
      expect(last?.detail).toMatch(/sandbox_isolation: bubblewrap is not installed .*unsafe-none/);
      expect((await api().call('/api/v1/settings', { as: owner })).body).toMatchObject({
        llm_model: 'openai/never-called',
      });
      // What the readiness probe asks of the sandboxes: they do not answer.
      await expect(api().runtime.runtime.health()).rejects.toThrow(/bubblewrap is not installed/);
    });
  },
  {
    runtime: async (dataDir) =>
      openSandboxRuntime(appServerConfig({ data_dir: dataDir }), { bwrapPath: join(dataDir, 'no-bwrap-here') }),
  },
);
