import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxConflictError } from '../../src/errors.ts';
import type { KubernetesRuntime } from '../../src/kubernetes/kubernetes-runtime.ts';
import type { RuntimeSandbox } from '../../src/runtime.ts';
import { untilStatus } from '../support/sandbox-shell.ts';
import { objectsOf, openRuntime, startStandIn } from './support/kube-fixture.ts';
import type { KubeStandIn } from './support/kube-stand-in.ts';

/** Idle sandboxes paused and long-dead ones deleted by the Kubernetes backend itself. */
describe('Kubernetes runtime: lifecycle sweep', () => {
  let standIn: KubeStandIn;
  let runtime: KubernetesRuntime;
  let idle: RuntimeSandbox;
  let working: RuntimeSandbox;
  let chatty: RuntimeSandbox;
  let events: NodeJS.Timeout | undefined;
  const warnings: string[] = [];

  beforeAll(async () => {
    standIn = await startStandIn();
    runtime = await openRuntime(
      standIn,
      {},
      {
        lifecycle: { idlePauseMs: 1_000, deadDeleteMs: 2_000, sweepEveryMs: 100 },
        logger: { warn: (message) => warnings.push(message) },
      },
    );
    [idle, working, chatty] = await Promise.all([
      runtime.start({ sessionId: 'idle-1' }),
      runtime.start({ sessionId: 'working-1' }),
      runtime.start({ sessionId: 'chatty-1' }),
    ]);
    expect([idle, working, chatty].map(({ status }) => status)).toEqual(['RUNNING', 'RUNNING', 'RUNNING']);
    // `working` runs a conversation (a long LLM call: no event); `chatty` appends events all along.
    standIn.agents.setRunning(working.id, 1);
    events = setInterval(() => standIn.agents.event(chatty.id), 200);
  });

  afterAll(async () => {
    clearInterval(events);
    await runtime?.close();
    await standIn?.close();
  });

  it('pauses a sandbox its agent server says is idle: pod gone, claim kept, PAUSED saying why', async () => {
    const claimUid = objectsOf(standIn, idle.id).get('PersistentVolumeClaim')![0]!.metadata.uid;
    // PAUSED from the root's change on; its pod is deleted right after.
    const podless = () => !objectsOf(standIn, idle.id).has('Pod');
    const paused = await untilStatus(runtime, idle.id, (found) => found?.status !== 'RUNNING' && podless());
    expect(paused).toMatchObject({ status: 'PAUSED', url: null, sessionApiKey: null });
    expect(paused?.statusDetail).toMatch(/^paused by the runtime: idle for 1 s/);
    const kept = objectsOf(standIn, idle.id);
    expect(kept.has('Pod')).toBe(false);
    expect(kept.get('PersistentVolumeClaim')![0]!.metadata.uid).toBe(claimUid);
    for (const kind of ['ConfigMap', 'Secret', 'Service', 'Ingress', 'NetworkPolicy']) {
      expect(kept.get(kind), kind).toHaveLength(1);
    }
    expect((await runtime.get(working.id))?.status).toBe('RUNNING');
    expect((await runtime.get(chatty.id))?.status).toBe('RUNNING');
  });

  it('deletes one paused for the dead time: its objects go, its root stays MISSING with why', async () => {
    // MISSING from the root's change on; its children are deleted right after.
    const onlyRoot = () => [...objectsOf(standIn, idle.id).keys()].join() === 'ConfigMap';
    const gone = await untilStatus(runtime, idle.id, (found) => found?.status !== 'PAUSED' && onlyRoot());
    expect(gone).toMatchObject({ status: 'MISSING', statusDetail: 'deleted by the runtime: PAUSED for more than 2 s' });
    const left = objectsOf(standIn, idle.id);
    expect([...left.keys()]).toEqual(['ConfigMap']);
    expect(left.get('ConfigMap')![0]!.data ?? {}).toEqual({});
    await expect(runtime.resume(idle.id)).rejects.toBeInstanceOf(SandboxConflictError);
    expect((await runtime.list()).map(({ id }) => id)).not.toContain(idle.id);

    // A runtime opened over the namespace says the same (the root is the state).
    const other = await openRuntime(standIn);
    try {
      await expect(other.getBySession('idle-1')).resolves.toMatchObject({
        id: idle.id,
        status: 'MISSING',
        statusDetail: 'deleted by the runtime: PAUSED for more than 2 s',
      });
    } finally {
      await other.close();
    }

    // Busy all along (over three times the idle time by now): still running, until they rest.
    expect((await runtime.get(working.id))?.status).toBe('RUNNING');
    expect((await runtime.get(chatty.id))?.status).toBe('RUNNING');
    standIn.agents.setRunning(working.id, 0);
    clearInterval(events);
    for (const busy of [working, chatty]) {
      const rested = await untilStatus(runtime, busy.id, (found) => found?.status !== 'RUNNING');
      expect(rested?.statusDetail).toMatch(/^paused by the runtime: idle/);
    }

    // Stopping a deleted one removes its root: then it is unknown.
    await runtime.stop(idle.id);
    expect(objectsOf(standIn, idle.id).size).toBe(0);
    await expect(runtime.get(idle.id)).resolves.toBeUndefined();
  });

  it('logs a sweep the API refused, and sweeps again', async () => {
    const started = await runtime.start({ sessionId: 'after-refusal' });
    standIn.fail({
      verb: 'list',
      resource: 'configmaps',
      code: 403,
      reason: 'Forbidden',
      message: 'no list',
      times: 1,
    });
    const refused = (warning: string) =>
      warning.startsWith('lifecycle sweep: list ConfigMap') && warning.includes('no list');
    for (let tries = 0; !warnings.some(refused); tries++) {
      expect(tries).toBeLessThan(200);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await expect(untilStatus(runtime, started.id, (found) => found?.status === 'PAUSED')).resolves.toMatchObject({
      statusDetail: expect.stringMatching(/^paused by the runtime: idle/),
    });
  });
});
