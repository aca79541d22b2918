/**
 * The agent's own overhead per step and the time from `POST /api/conversations` to the first LLM request.
 * The LLM is llm-replay in a separate process with no latency; each step calls `think` (a tool that does
 * nothing), so a step's time minus its LLM round trip is what Bosun itself spends: building the view,
 * parsing the answer, validating and durably appending the events, running the tool, publishing.
 * Run: npm run bench:agent-step [-- STEPS]
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { buildAgentServer } from '@bosun/agent-server';
import { AgentServerClient, BosunSocketError } from '@bosun/client';
import { summarize } from './support/stats.ts';

const STEPS = Number(process.argv[2] ?? 500);
const root = await mkdtemp(join(tmpdir(), 'bosun-bench-agent-'));
const scriptPath = join(root, 'script.json');
const turns = [
  ...Array.from({ length: STEPS }, (_, i) => ({
    tool_calls: [{ name: 'think', arguments: { thought: `step ${i}: considering the next move` } }],
  })),
  { tool_calls: [{ name: 'finish', arguments: { message: 'done' } }] },
];
await writeFile(scriptPath, JSON.stringify({ turns }));

// llm-replay in its own process, so its work is not counted as the agent's.
const replay = spawn(
  process.execPath,
  ['packages/cli/bin/bosun.js', 'llm-replay', '--quiet', '--script', scriptPath, '--port', '0'],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const replayUrl = await new Promise<string>((resolve) => {
  createInterface({ input: replay.stdout }).once('line', (line) => resolve(line.trim()));
});

const server = await buildAgentServer({ dataDir: join(root, 'data') });
const url = await server.app.listen({ host: '127.0.0.1', port: 0 });
const api = new AgentServerClient({ baseUrl: url });

try {
  const id = crypto.randomUUID();
  const actionTimes: number[] = [];
  // The conversation starts running as it is created: follow it from its first event on (it is not there yet).
  const follow = async (): Promise<void> => {
    for (;;) {
      try {
        for await (const event of api.followEvents(id, { fromStart: true })) {
          if (event.kind === 'ActionEvent') actionTimes.push(performance.now());
          const status =
            event.kind === 'ConversationStateUpdateEvent' && event.key === 'execution_status' ? event.value : undefined;
          if (status === 'finished' || status === 'error' || status === 'stuck') return;
        }
      } catch (error) {
        if (!(error instanceof BosunSocketError && error.code === 4004)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    }
  };
  const done = follow();
  const sentAt = Date.now();
  await api.post('/api/conversations', {
    body: {
      agent: { llm: { model: 'bench', base_url: `${replayUrl}/v1`, num_retries: 0 }, tools: [] },
      workspace: { working_dir: join(root, 'workspace') },
      max_iterations: STEPS + 10,
      conversation_id: id,
      initial_message: { content: [{ type: 'text', text: 'think a lot' }] },
    },
  });
  await done;

  const info = await api.get('/api/conversations/{conversation_id}', { params: { conversation_id: id } });
  const stats = info.stats as { usage_to_metrics: Record<string, { response_latencies: { latency: number }[] }> };
  const latencies = (stats.usage_to_metrics.default?.response_latencies ?? []).map((l) => l.latency * 1000);
  // Step k: from ActionEvent k to ActionEvent k+1; its LLM round trip is the (k+1)-th request's latency.
  const overheads: number[] = [];
  for (let k = 0; k + 1 < actionTimes.length; k++) {
    overheads.push((actionTimes[k + 1] as number) - (actionTimes[k] as number) - (latencies[k + 1] ?? 0));
  }
  const stepOverhead = summarize(overheads.map((ms) => ms * 1000));
  const llm = summarize(latencies.map((ms) => ms * 1000));
  console.log(`${STEPS} think steps, final status ${info.execution_status}`);
  console.log(
    `agent overhead per step: median ${stepOverhead.p50.toFixed(0)} µs, p90 ${stepOverhead.p90.toFixed(0)} µs, p99 ${stepOverhead.p99.toFixed(0)} µs`,
  );
  console.log(`LLM round trip (llm-replay, no latency): median ${llm.p50.toFixed(0)} µs`);
  // The first LLM request precedes the first ActionEvent by one LLM round trip.
  const page = await api.get('/api/conversations/{conversation_id}/events/search', {
    params: { conversation_id: id },
    query: { kind: 'ActionEvent', limit: 1 },
  });
  const firstAction = Date.parse(page.items[0]?.timestamp ?? '');
  console.log(
    `POST /api/conversations (with initial_message) to first LLM request: ${firstAction - (latencies[0] ?? 0) - sentAt} ms`,
  );
} finally {
  await server.close();
  replay.kill('SIGTERM');
  await rm(root, { recursive: true, force: true });
}
