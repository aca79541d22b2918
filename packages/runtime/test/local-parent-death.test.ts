import { spawn } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { LocalRuntime, type RuntimeSandbox } from '@bosun/runtime';
import { afterAll, describe, expect, it } from 'vitest';
import { SANDBOX_COMMAND } from '../../../test/support/sandbox-bundle.ts';
import { reachable, sh } from './support/sandbox-shell.ts';

const CHILD = fileURLToPath(new URL('./support/runtime-child.ts', import.meta.url));

/** The processes whose command line mentions `text` (bwrap's names the sandbox's directories). */
async function processesMentioning(text: string): Promise<number[]> {
  const found: number[] = [];
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(text)) found.push(Number(pid));
  }
  return found;
}

/** The cgroup directories named `name`, in every hierarchy mounted under /sys/fs/cgroup. */
async function leftGroups(name: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > 4) return;
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (!entry.isDirectory()) continue;
      if (entry.name === name) found.push(join(dir, entry.name));
      else await walk(join(dir, entry.name), depth + 1);
    }
  };
  await walk('/sys/fs/cgroup', 0);
  return found;
}

async function until(condition: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('the condition did not come true in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('local runtime: a sandbox never outlives its runtime, and the next runtime takes it over', () => {
  let root: string | undefined;
  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('is killed with the whole sandbox when the runtime is killed (kill -9), then found PAUSED and resumed', async () => {
    root = await mkdtemp(join(tmpdir(), 'bosun-runtime-orphan-'));
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, root], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`the runtime exited with ${code}`)));
      });
      const sandbox = JSON.parse(line) as RuntimeSandbox;
      expect(sandbox.status).toBe('RUNNING');
      const tools = await fetch(`${sandbox.url}/api/tools/`, {
        headers: { 'X-Session-API-Key': `${sandbox.sessionApiKey}` },
      });
      expect(tools.status).toBe(200);
      await sh(sandbox, 'echo survived > /workspace/before-the-kill.txt');
      expect(await processesMentioning(join(root, sandbox.id))).not.toEqual([]);

      child.kill('SIGKILL');
      await exited;
      const dir = join(root, sandbox.id);
      await until(async () => (await processesMentioning(dir)).length === 0);
      expect(await reachable('127.0.0.1', Number(new URL(`${sandbox.url}`).port))).toBe(false);

      // Its cgroups stayed behind, empty: the next runtime removes them.
      const groups = `bosun-${child.pid}-${sandbox.id}`;
      if (sandbox.isolation.some((line) => line.includes('(cgroup'))) {
        const left = await leftGroups(groups);
        expect(left.length).toBeGreaterThan(0);
        // The kernel empties them a moment after the processes are killed.
        const tasks = async (dir: string) => (await readFile(join(dir, 'cgroup.procs'), 'utf8').catch(() => '')).trim();
        await until(async () => (await Promise.all(left.map(tasks))).every((procs) => procs === ''));
      }
      const next = await LocalRuntime.open({
        root,
        command: SANDBOX_COMMAND,
        startTimeoutMs: 90_000,
        stopGraceMs: 5_000,
      });
      try {
        // It knows the sandbox, PAUSED; resuming it starts it over its workspace with a new key.
        const found = await next.getBySession('orphan');
        expect(found).toMatchObject({ id: sandbox.id, status: 'PAUSED', sessionApiKey: null });
        expect(found?.statusDetail).toContain('the runtime restarted');
        const resumed = await next.resume(sandbox.id);
        expect(resumed.status).toBe('RUNNING');
        expect(resumed.sessionApiKey).not.toBe(sandbox.sessionApiKey);
        expect((await sh(resumed, 'cat /workspace/before-the-kill.txt')).stdout).toContain('survived');
      } finally {
        await next.close();
      }
      expect(await leftGroups(groups)).toEqual([]);
    } finally {
      child.kill('SIGKILL');
    }
  }, 120_000);
});
