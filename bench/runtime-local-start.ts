/**
 * A local sandbox from start to RUNNING: `LocalRuntime.start` of a `bosun agent-server` (the bundle `npm start`
 * runs) under bubblewrap, with network none (its agent server reached through the runtime's bridge), until it
 * answers `/ready` and `/api/tools/` with its session key; then pause and resume (a new key). Target: start to
 * RUNNING under 500 ms (p50). Each run is a new sandbox, run one after another. For scale, the same agent server
 * as a plain child process (no sandbox) until it answers `/ready`: the difference is what isolation costs.
 * Then warm: a runtime with a warm pool of one, each start claiming the sandbox the pool started beforehand (the
 * pool refilled before the next run). Target: warm start to RUNNING under 50 ms (p50).
 * Env: RUNS (5).
 * Run: npm run bench:runtime-local-start
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LocalRuntime } from '@bosun/runtime';
import { buildBundle, spawnServer, tempDataDir } from './support/server-process.ts';
import { formatMs, hrMs, summarize, target } from './support/stats.ts';

const RUNS = Number(process.env.RUNS ?? 5);
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BUNDLE = join(ROOT, 'packages/cli/dist/bosun.mjs');

await buildBundle();
const root = await mkdtemp(join(tmpdir(), 'bosun-bench-runtime-'));
// The runtimes' roots are inside: sandboxes run as another user, who must traverse to them.
await chmod(root, 0o711);
const options = { command: [process.execPath, BUNDLE], readOnlyPaths: [ROOT, process.execPath], stopGraceMs: 5_000 };
const runtime = await LocalRuntime.open({ root: join(root, 'cold'), ...options });
const starts: number[] = [];
const bare: number[] = [];
const resumes: number[] = [];
try {
  console.log((await runtime.health()).enforced.join('\n'));
  for (let run = 0; run < RUNS; run++) {
    const startedAt = hrMs();
    const sandbox = await runtime.start({ sessionId: `bench-${run}`, environment: { BOSUN_LOG_LEVEL: 'warn' } });
    starts.push(hrMs() - startedAt);
    if (sandbox.status !== 'RUNNING')
      throw new Error(`sandbox ${sandbox.id} is ${sandbox.status}: ${sandbox.statusDetail}`);
    await runtime.pause(sandbox.id);
    const resumedAt = hrMs();
    const resumed = await runtime.resume(sandbox.id);
    resumes.push(hrMs() - resumedAt);
    if (resumed.status !== 'RUNNING') throw new Error(`resume: ${resumed.status}: ${resumed.statusDetail}`);
    await runtime.stop(sandbox.id);

    const data = await tempDataDir('runtime-bare');
    const spawnedAt = hrMs();
    const server = await spawnServer(data.dir);
    while ((await fetch(`${server.url}/ready`).catch(() => undefined))?.status !== 200) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    bare.push(hrMs() - spawnedAt);
    await server.stop();
    await data.remove();
  }
} finally {
  await runtime.close();
}
// Opened after the cold runs, so that filling its pool competes with none of them.
const warmRuntime = await LocalRuntime.open({
  root: join(root, 'warm'),
  ...options,
  warmPools: [{ name: 'bench', count: 1, spec: { environment: { BOSUN_LOG_LEVEL: 'warn' } } }],
});
const warmStarts: number[] = [];
try {
  for (let run = 0; run < RUNS; run++) {
    while ((await warmRuntime.health()).warm?.bench !== 1) await new Promise((resolve) => setTimeout(resolve, 20));
    const called = new Date().toISOString();
    const startedAt = hrMs();
    const sandbox = await warmRuntime.start({ sessionId: `warm-${run}`, environment: { BOSUN_LOG_LEVEL: 'warn' } });
    warmStarts.push(hrMs() - startedAt);
    // A sandbox from the pool was created before the call.
    if (sandbox.status !== 'RUNNING' || sandbox.createdAt >= called) {
      throw new Error(`sandbox ${sandbox.id} was not served warm: ${sandbox.status} ${sandbox.statusDetail}`);
    }
    await warmRuntime.stop(sandbox.id);
  }
} finally {
  await warmRuntime.close();
  await rm(root, { recursive: true, force: true });
}
console.log(formatMs('start to RUNNING', starts));
console.log(formatMs('resume to RUNNING', resumes));
console.log(formatMs('the same agent server, unsandboxed, spawn to /ready', bare));
console.log(`isolation overhead (p50 difference): ${(summarize(starts).p50 - summarize(bare).p50).toFixed(0)} ms`);
console.log(formatMs('warm start to RUNNING', warmStarts));
const p50 = summarize(starts).p50;
console.log(target('sandbox start to RUNNING', p50 < 500, `p50 ${p50.toFixed(0)} ms (target < 500 ms)`));
const warmP50 = summarize(warmStarts).p50;
console.log(target('warm start to RUNNING', warmP50 < 50, `p50 ${warmP50.toFixed(2)} ms (target < 50 ms)`));
