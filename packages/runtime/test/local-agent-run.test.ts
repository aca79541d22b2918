import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import { LocalRuntime } from '@bosun/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_COMMAND } from '../../../test/support/sandbox-bundle.ts';

/**
 * A whole agent run in a sandbox with network `allow`: the test reaches the agent server through the runtime's
 * bridge, the agent reaches its model (llm-replay on the host's loopback) through the allow-listed egress, and its
 * terminal tool runs inside the sandbox, writing to the workspace.
 */
describe('local runtime: an agent run in a sandbox', () => {
  let root: string;
  let llm: LlmReplay;
  let runtime: LocalRuntime;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'bosun-runtime-run-'));
    llm = await startLlmReplay({
      script: {
        turns: [
          { tool_calls: [{ name: 'terminal', arguments: { command: 'echo "written as $(id -u)" > proof.txt' } }] },
          { tool_calls: [{ name: 'finish', arguments: { message: 'The proof is written.' } }] },
        ],
      },
    });
    runtime = await LocalRuntime.open({ root, command: SANDBOX_COMMAND, startTimeoutMs: 90_000, stopGraceMs: 5_000 });
  });

  afterAll(async () => {
    await runtime?.close();
    await llm?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('reaches its model through the allow-listed egress, and its tools write in its workspace as its user', async () => {
    const llmPort = Number(new URL(llm.url).port);
    const sandbox = await runtime.start({
      sessionId: 'agent-run',
      network: { mode: 'allow', hosts: [{ host: '127.0.0.1', port: llmPort }] },
    });
    expect(sandbox.status).toBe('RUNNING');
    const headers = { 'content-type': 'application/json', 'X-Session-API-Key': `${sandbox.sessionApiKey}` };
    const created = await fetch(`${sandbox.url}/api/conversations`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        agent: {
          llm: { model: 'test-model', base_url: llm.baseUrl, api_key: 'k', num_retries: 0, timeout: 20 },
          tools: [{ name: 'terminal' }],
        },
        workspace: { working_dir: '/workspace' },
        initial_message: { role: 'user', content: [{ type: 'text', text: 'Write the proof.' }] },
      }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const { id } = (await created.json()) as { id: string };

    const deadline = Date.now() + 60_000;
    let status = '';
    while (!['finished', 'error', 'stuck'].includes(status)) {
      if (Date.now() > deadline) throw new Error(`the run is still ${status}`);
      const info = await fetch(`${sandbox.url}/api/conversations/${id}`, { headers });
      status = ((await info.json()) as { execution_status: string }).execution_status;
      if (!['finished', 'error', 'stuck'].includes(status)) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe('finished');
    expect(llm.requests()).toHaveLength(2);
    const proof = await readFile(join(root, sandbox.id, 'workspace', 'proof.txt'), 'utf8');
    // Its own user: 10001 under a root runtime, else the runtime's.
    expect(proof.trim()).toBe(`written as ${process.getuid?.() === 0 ? 10001 : process.getuid?.()}`);
  }, 150_000);
});
