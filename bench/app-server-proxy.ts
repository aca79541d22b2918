/**
 * What the app's sandbox proxy (`{public_url}/sandboxes/{id}/agent/...`) costs against reaching the sandbox's agent
 * server directly, on loopback, for one conversation of a real sandbox (the bundle's agent server):
 * - latency of a small GET (`GET /api/conversations/{id}`), sequential over keep-alive connections, alternating
 *   direct and proxied after a warm-up. Target: the proxy adds < 1 ms at p50 (p99 reported).
 * - throughput of a large download (`GET /api/file/download`, a SIZE_MIB file), read as it streams (by a worker
 *   thread, as the replays are: the app server runs in this process, a browser would not).
 *   Targets: >= 100 MiB/s through the proxy, and >= 80% of the direct rate (the agent server's own ceiling).
 * - WebSocket event relay: `/sockets/events/{id}?resend_all=true` replaying EVENTS stored events, until the last
 *   one arrived, direct and proxied alternately. Target: the proxied relay >= 80% of the direct events/s.
 * SQLite; sandboxes under bubblewrap unless SANDBOX_ISOLATION=unsafe-none.
 *
 * Measured (2026-11, 2-core machine shared with other jobs, load average 5-17; 9 runs): GET +0.73 to +0.95 ms at
 * p50, met every time; download 41-77% of direct under load (before the existence-oracle change 53-60%, after it
 * 69-77% and 41-53%: the load, not the code, moved it), 98% on a quiet machine (194 of 198 MiB/s); replay 56-102%.
 * Why the download misses under load: the app's main thread also serves the "direct" URL (the runtime's bridge
 * to the bubblewrapped agent server), 1.4 ms/MiB on a CPU, and the proxy's hop adds 0.7 ms/MiB on top (quiet;
 * printed below as "app main thread on a CPU per MiB"): see packages/app-server/README.md, "What it costs".
 * Env: REQUESTS (2000), WARMUP (200), SIZE_MIB (64), DOWNLOADS (5), EVENTS (20000), REPLAYS (5).
 * Run: npm run bench:app-server-proxy
 */
import { readFileSync } from 'node:fs';
import { WebSocket } from 'ws';
import { startConversationStack } from './support/app-stack.ts';
import { httpRequest } from './support/http.ts';
import { formatMs, hrMs, summarize, target } from './support/stats.ts';
import { readInWorker } from './support/stream-reader.ts';

/**
 * Milliseconds this process's main thread (the app server's, and the embedded runtime's bridges to bubblewrapped
 * sandboxes) has been on a CPU (Linux: /proc schedstat; undefined elsewhere). Unlike a rate, barely moved by what
 * else the machine runs.
 */
function mainThreadCpuMs(): number | undefined {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return undefined;
  }
}

const REQUESTS = Number(process.env.REQUESTS ?? 2000);
const WARMUP = Number(process.env.WARMUP ?? 200);
const SIZE_MIB = Number(process.env.SIZE_MIB ?? 64);
const DOWNLOADS = Number(process.env.DOWNLOADS ?? 5);
const EVENTS = Number(process.env.EVENTS ?? 20000);
const REPLAYS = Number(process.env.REPLAYS ?? 5);

const { stack, conversation, toApp, toAgent, close } = await startConversationStack('app-server-proxy');
try {
  const { url } = stack.running;
  const { id } = conversation;
  const key = { 'X-Session-API-Key': conversation.session_api_key };
  const directBase = conversation.conversation_url.replace(/\/api\/conversations\/[^/]+$/, '');
  const proxiedBase = `${url}/sandboxes/${conversation.sandbox_id}/agent`;
  if (directBase.startsWith(proxiedBase)) throw new Error('the conversation URL is already proxied');
  const bases = { direct: directBase, proxied: proxiedBase };

  // Latency of a small GET.
  const times = { direct: [] as number[], proxied: [] as number[] };
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    for (const [name, agent] of [['proxied', toApp] as const, ['direct', toAgent] as const]) {
      const at = hrMs();
      const answer = await httpRequest(agent, `${bases[name]}/api/conversations/${id}`, 'GET', undefined, key);
      const ms = hrMs() - at;
      if (answer.status !== 200) throw new Error(`GET conversation ${name}: HTTP ${answer.status} ${answer.body}`);
      if (i >= WARMUP) times[name].push(ms);
    }
  }
  console.log(formatMs('GET /api/conversations/{id} directly', times.direct));
  console.log(formatMs('GET /api/conversations/{id} through the proxy', times.proxied));
  const added = summarize(times.proxied).p50 - summarize(times.direct).p50;
  const addedP99 = summarize(times.proxied).p99 - summarize(times.direct).p99;
  console.log(
    target('the proxy adds < 1 ms at p50', added < 1, `added ${added.toFixed(3)} ms (p99 ${addedP99.toFixed(3)} ms)`),
  );

  // A large download.
  const got = await httpRequest(toAgent, `${directBase}/api/conversations/${id}`, 'GET', undefined, key);
  const workspace = (JSON.parse(got.body) as { workspace: { working_dir: string } }).workspace.working_dir;
  const file = `${workspace}/bench-download.bin`;
  const boundary = 'bench-boundary';
  const upload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench-download.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    Buffer.alloc(SIZE_MIB * 1024 * 1024, 'x'),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const uploaded = await httpRequest(
    toAgent,
    `${directBase}/api/file/upload?path=${encodeURIComponent(file)}`,
    'POST',
    upload.toString('latin1'),
    { ...key, 'content-type': `multipart/form-data; boundary=${boundary}` },
  );
  if (uploaded.status !== 200) throw new Error(`upload: HTTP ${uploaded.status} ${uploaded.body}`);
  const rates = { direct: [] as number[], proxied: [] as number[] };
  const cpuPerMiB = { direct: [] as number[], proxied: [] as number[] };
  for (let i = 0; i < DOWNLOADS + 1; i++) {
    for (const name of ['proxied', 'direct'] as const) {
      const url = `${bases[name]}/api/file/download?path=${file}`;
      const cpuAt = mainThreadCpuMs();
      const { count: bytes, seconds } = await readInWorker({ kind: 'download', url, headers: key });
      const cpu = cpuAt === undefined ? undefined : (mainThreadCpuMs() as number) - cpuAt;
      if (bytes !== SIZE_MIB * 1024 * 1024) throw new Error(`download ${name}: ${bytes} bytes`);
      if (i > 0) rates[name].push(SIZE_MIB / seconds);
      if (i > 0 && cpu !== undefined) cpuPerMiB[name].push(cpu / SIZE_MIB);
    }
  }
  const median = (values: number[]) => summarize(values).p50;
  console.log(
    `download of ${SIZE_MIB} MiB directly: ${median(rates.direct).toFixed(0)} MiB/s (median of ${DOWNLOADS})`,
  );
  console.log(`download through the proxy: ${median(rates.proxied).toFixed(0)} MiB/s (median of ${DOWNLOADS})`);
  // Where the ratio comes from: the app's main thread also serves the "direct" URL under bubblewrap (the runtime's
  // bridge), so what the proxy adds per MiB is what this thread must find time for on top of it.
  if (cpuPerMiB.direct.length > 0) {
    console.log(
      `app main thread on a CPU per MiB downloaded: directly ${median(cpuPerMiB.direct).toFixed(2)} ms, ` +
        `through the proxy ${median(cpuPerMiB.proxied).toFixed(2)} ms (medians)`,
    );
  }
  const downloadRate = median(rates.proxied);
  console.log(
    target('download through the proxy >= 100 MiB/s', downloadRate >= 100, `${downloadRate.toFixed(0)} MiB/s`),
  );
  // The proxy cannot be faster than the agent server it relays: how much of that it keeps.
  const kept = downloadRate / median(rates.direct);
  console.log(target('download through the proxy >= 80% of direct', kept >= 0.8, `${(kept * 100).toFixed(0)}%`));

  // WebSocket event relay: EVENTS messages stored (sent as frames, not run), then replayed from the start.
  const socketOf = (base: string) => `${base.replace(/^http/, 'ws')}/sockets/events/${id}?resend_all=true`;
  const count = async () =>
    Number(
      (await httpRequest(toAgent, `${directBase}/api/conversations/${id}/events/count`, 'GET', undefined, key)).body,
    );
  const before = await count();
  const writer = new WebSocket(`${directBase.replace(/^http/, 'ws')}/sockets/events/${id}`, { headers: key });
  await new Promise((resolve, reject) => writer.once('open', resolve).once('error', reject));
  for (let n = 0; n < EVENTS; n++) {
    writer.send(JSON.stringify({ role: 'user', content: [{ type: 'text', text: `event ${n}` }], run: false }));
  }
  while ((await count()) < before + EVENTS) await new Promise((resolve) => setTimeout(resolve, 50));
  writer.close();
  // The full_state snapshot first, then every stored event.
  const frames = (await count()) + 1;
  const perSecond = { direct: [] as number[], proxied: [] as number[] };
  for (let i = 0; i < REPLAYS + 1; i++) {
    for (const name of ['proxied', 'direct'] as const) {
      const { seconds } = await readInWorker({ kind: 'frames', url: socketOf(bases[name]), headers: key, frames });
      if (i > 0) perSecond[name].push(frames / seconds);
    }
  }
  const relayed = median(perSecond.proxied);
  const direct = median(perSecond.direct);
  console.log(`event replay directly: ${direct.toFixed(0)} events/s (${frames} frames, median of ${REPLAYS})`);
  console.log(`event replay through the proxy: ${relayed.toFixed(0)} events/s`);
  const share = relayed / direct;
  console.log(target('relayed >= 80% of direct', share >= 0.8, `${(share * 100).toFixed(0)}%`));
} finally {
  await close();
}
