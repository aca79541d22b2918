import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  LocalRuntime,
  type RuntimeSandbox,
  SandboxConflictError,
  SandboxNotFoundError,
  SandboxSpecError,
} from '@bosun/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_COMMAND } from '../../../test/support/sandbox-bundle.ts';
import { skipUnlessEnforced, withLocalRuntime } from './support/local-runtime.ts';
import { reachable, sh, untilStatus } from './support/sandbox-shell.ts';

const node = process.execPath;

describe('local runtime: lifecycle', () => {
  let root: string;
  let runtime: LocalRuntime;
  let sandbox: RuntimeSandbox;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'bosun-runtime-'));
    runtime = await LocalRuntime.open({ root, command: SANDBOX_COMMAND, startTimeoutMs: 90_000, stopGraceMs: 5_000 });
    sandbox = await runtime.start({ sessionId: 'life' });
    expect(sandbox.status).toBe('RUNNING');
  }, 120_000);

  afterAll(async () => {
    await runtime?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('pause ends its process and revokes its key; resume keeps the workspace and issues a new key', async () => {
    await sh(sandbox, 'echo kept > /workspace/note.txt');
    const { url: oldUrl, sessionApiKey: oldKey } = sandbox;
    const paused = await runtime.pause(sandbox.id);
    expect(paused).toMatchObject({ status: 'PAUSED', url: null, sessionApiKey: null });
    expect(await reachable('127.0.0.1', Number(new URL(`${oldUrl}`).port))).toBe(false);
    // Pausing again changes nothing.
    expect((await runtime.pause(sandbox.id)).status).toBe('PAUSED');

    const resumed = await runtime.resume(sandbox.id);
    expect(resumed.status).toBe('RUNNING');
    expect(resumed.sessionApiKey).not.toBe(oldKey);
    expect((await sh(resumed, 'cat /workspace/note.txt')).stdout).toContain('kept');
    const withOldKey = await fetch(`${resumed.url}/api/tools/`, { headers: { 'X-Session-API-Key': `${oldKey}` } });
    expect(withOldKey.status).toBe(401);
    await expect(runtime.resume(sandbox.id)).rejects.toBeInstanceOf(SandboxConflictError);
    sandbox = resumed;
  }, 120_000);

  it('a crash of its agent server leaves the runtime (its parent) running and the sandbox ERROR with how', async () => {
    // The agent server is the second process of the sandbox's PID namespace (after bwrap's init).
    await sh(sandbox, '(sleep 0.1; kill -KILL 2) >/dev/null 2>&1 &').catch(() => {});
    const failed = await untilStatus(runtime, sandbox.id, (found) => found?.status === 'ERROR');
    expect(failed).toMatchObject({ status: 'ERROR', url: null, sessionApiKey: null });
    expect(failed?.statusDetail).toContain('killed by SIGKILL');
    expect((await runtime.health()).running).toBe(0);
    expect((await runtime.getBySession('life'))?.id).toBe(sandbox.id);
  });

  it('stop removes it and its workspace; it is then unknown', async () => {
    await runtime.stop(sandbox.id);
    expect(await runtime.get(sandbox.id)).toBeUndefined();
    expect(existsSync(join(root, sandbox.id))).toBe(false);
    await expect(runtime.stop(sandbox.id)).rejects.toBeInstanceOf(SandboxNotFoundError);
    await expect(runtime.pause(sandbox.id)).rejects.toBeInstanceOf(SandboxNotFoundError);
    await expect(runtime.resume(sandbox.id)).rejects.toBeInstanceOf(SandboxNotFoundError);
  });

  it('a command that fails at start is ERROR with its exit and its last error line', async () => {
    const failed = await runtime.start({
      sessionId: 'fails',
      command: [node, '-e', 'console.error("cannot go on"); process.exit(3)'],
    });
    expect(failed.status).toBe('ERROR');
    expect(failed.statusDetail).toBe('its agent server exited with code 3: cannot go on');
    const [found, unknown] = await runtime.getManyBySession(['fails', 'nobody']);
    expect(found?.id).toBe(failed.id);
    expect(unknown).toBeUndefined();
    expect((await runtime.list()).map((item) => item.sessionId)).not.toContain('fails');
  });

  it('refuses a spec it cannot run, naming why', async () => {
    const refused = [
      { sessionId: 'x', workingDir: 'relative' },
      { sessionId: 'x', workingDir: '/usr/local/work' },
      { sessionId: 'x', resourceFactor: 3 as 1 },
      { sessionId: 'bad id!' },
      { sessionId: 'x', environment: { 'NOT-A-NAME': '1' } },
      { sessionId: 'x', network: { mode: 'allow' as const, hosts: [{ host: '127.0.0.1', port: 8000 }] } },
      { sessionId: 'x', network: { mode: 'allow' as const, hosts: [{ host: 'not a host', port: 80 }] } },
      { sessionId: 'x', runAsUser: 0 },
      { sessionId: 'fails' },
    ];
    for (const spec of refused) await expect(runtime.start(spec)).rejects.toBeInstanceOf(SandboxSpecError);
  });
});

describe('local runtime: resource limits', () => {
  it('kills a sandbox that goes over its memory and says so', async (context) => {
    await withLocalRuntime({ limits: { memoryBytes: 64 * 2 ** 20 } }, async (runtime) => {
      await skipUnlessEnforced(context, runtime, 'limit: memory');
      const hog = 'const kept = []; for (;;) kept.push(Buffer.alloc(1 << 22).fill(1));';
      const killed = await runtime.start({ sessionId: 'hog', command: [node, '-e', hog] });
      expect(killed.status).toBe('ERROR');
      expect(killed.statusDetail).toContain('was killed: it went over its memory limit of 64 MiB');
      expect(killed.isolation.join('\n')).toContain('memory: 64 MiB (cgroup v');
    });
  });
});

describe('local runtime: process limit', () => {
  it('keeps a sandbox from forking past its process limit', async (context) => {
    await withLocalRuntime({ limits: { processes: 16 } }, async (runtime) => {
      await skipUnlessEnforced(context, runtime, 'limit: pids');
      const forks = 'i=0; while [ $i -lt 100 ]; do sleep 30 & i=$((i+1)); done; echo all forked >&2';
      const stopped = await runtime.start({ sessionId: 'forks', command: ['/bin/sh', '-c', forks] });
      expect(stopped.status).toBe('ERROR');
      expect(stopped.statusDetail).toMatch(/fork/i);
      expect(stopped.statusDetail).not.toContain('all forked');
    });
  });
});

describe('local runtime: CPU limit', () => {
  it('gives a busy sandbox no more than its share of CPU time', async (context) => {
    await withLocalRuntime({ limits: { cpus: 0.1 } }, async (runtime) => {
      await skipUnlessEnforced(context, runtime, 'limit: cpu');
      // Busy for 1.5 s of wall time, then says how much CPU time it got (unthrottled: about as much).
      const busy = [
        'const start = Date.now(); while (Date.now() - start < 1500);',
        'const used = process.cpuUsage(); console.error(`cpu-ms ${Math.round((used.user + used.system) / 1000)}`);',
        'process.exit(9);',
      ].join(' ');
      const ended = await runtime.start({ sessionId: 'busy', command: [node, '-e', busy] });
      const cpuMs = Number(/cpu-ms (\d+)/.exec(`${ended.statusDetail}`)?.[1]);
      expect(cpuMs).toBeGreaterThan(0);
      expect(cpuMs).toBeLessThan(500);
    });
  });
});

describe('local runtime: CPU limit while starting', () => {
  it('lets an agent server start on twice its CPUs, and holds it to its own from the moment it is ready', async (context) => {
    await withLocalRuntime({ limits: { cpus: 0.5 } }, async (runtime) => {
      await skipUnlessEnforced(context, runtime, 'limit: cpu');
      const group = `bosun-${process.pid}-`;
      const quotas: string[] = [];
      // What the group allowed while the agent server started, read as often as the start lets.
      let watching = true;
      const watch = (async () => {
        while (watching) {
          quotas.push(...(await cpuQuotas(group)));
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      const sandbox = await runtime.start({ sessionId: 'starting' });
      watching = false;
      await watch;
      expect(sandbox.status).toBe('RUNNING');
      expect(quotas).toContain('100000');
      expect(await cpuQuotas(group)).toEqual(['50000']);
    });
  }, 120_000);
});

/** The CPU quotas (µs per 100 ms) of this process's sandbox groups, cgroup v1 or v2. */
async function cpuQuotas(prefix: string): Promise<string[]> {
  const quotas: string[] = [];
  for (const root of ['/sys/fs/cgroup/cpu', '/sys/fs/cgroup/cpu,cpuacct', '/sys/fs/cgroup']) {
    const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isDirectory() || !entry.name.startsWith(prefix)) continue;
      const dir = join(entry.parentPath, entry.name);
      const v1 = await readFile(join(dir, 'cpu.cfs_quota_us'), 'utf8').catch(() => undefined);
      const v2 = v1 ?? (await readFile(join(dir, 'cpu.max'), 'utf8').catch(() => undefined));
      if (v2 !== undefined) quotas.push(v2.trim().split(' ')[0] as string);
    }
    if (quotas.length > 0) break;
  }
  return quotas;
}

describe('local runtime without bubblewrap', () => {
  it('refuses to open unless told to run sandboxes unisolated, and then says so', async () => {
    const root = await mkdtemp(join(tmpdir(), 'bosun-runtime-'));
    try {
      await expect(
        LocalRuntime.open({ root, command: SANDBOX_COMMAND, bwrapPath: '/nonexistent/bwrap' }),
      ).rejects.toThrow(/bubblewrap .* is not installed.*unsafeNoIsolation/);
      const warnings: string[] = [];
      const runtime = await LocalRuntime.open({
        root,
        command: SANDBOX_COMMAND,
        bwrapPath: '/nonexistent/bwrap',
        unsafeNoIsolation: true,
        logger: { warn: (message) => warnings.push(message) },
      });
      expect(warnings.join()).toContain('NOT isolated');
      expect(await runtime.health()).toMatchObject({ isolated: false, enforced: [] });
      const plain = await runtime.start({ sessionId: 'plain', command: [node, '-e', 'process.exit(4)'] });
      expect(plain).toMatchObject({ status: 'ERROR', isolation: ['none: a plain child process (unsafeNoIsolation)'] });
      await runtime.close();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('local runtime: bubblewrap itself failing', () => {
  it('is ERROR with what bwrap said, and the runtime goes on', async () => {
    await withLocalRuntime(
      { command: [node], readOnlyPaths: [process.execPath, '/nonexistent-bosun-installation'] },
      async (runtime) => {
        const failed = await runtime.start({ sessionId: 'no-mount' });
        expect(failed.status).toBe('ERROR');
        expect(failed.statusDetail).toContain("Can't find source path /nonexistent-bosun-installation");
        expect((await runtime.health()).running).toBe(0);
      },
    );
  });
});
