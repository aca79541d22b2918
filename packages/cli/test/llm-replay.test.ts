import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './io.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
let dir: string;
let child: ChildProcess | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bosun-cli-llm-replay-'));
});
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }
  child = undefined;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function scriptFile(name: string, script: unknown): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, typeof script === 'string' ? script : JSON.stringify(script));
  return path;
}

describe('bosun llm-replay', () => {
  it('prints its URL as the first line, serves the script, and exits 0 on SIGTERM', async () => {
    const script = await scriptFile('ok.json', {
      turns: [{ content: 'hello from the CLI', tool_calls: [{ name: 'terminal', arguments: { command: 'ls' } }] }],
    });
    const proc = spawn(
      process.execPath,
      ['packages/cli/bin/bosun.js', 'llm-replay', '--script', script, '--port', '0'],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child = proc;
    let stderr = '';
    proc.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const lines = createInterface({ input: proc.stdout });
    const [first] = (await once(lines, 'line')) as [string];
    expect(first).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const res = await fetch(`${first}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-cli' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { choices: { message: { content: string; tool_calls: unknown[] } }[] };
    expect(body.choices[0]?.message.content).toBe('hello from the CLI');
    expect(body.choices[0]?.message.tool_calls).toHaveLength(1);
    const recorded = (await (await fetch(`${first}/__requests`)).json()) as { headers: Record<string, string> }[];
    expect(recorded[0]?.headers.authorization).toBe('[REDACTED]');

    const exited = once(proc, 'exit');
    proc.kill('SIGTERM');
    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
    expect(stderr).toContain('POST /v1/chat/completions -> turn 0');
  });

  it('exits 2 without --script and with a bad port', async () => {
    const missing = await runCli(['llm-replay']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--script is required');
    const script = await scriptFile('port.json', { turns: [] });
    const badPort = await runCli(['llm-replay', '--script', script, '--port', 'http']);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toContain('--port must be an integer');
  });

  it('exits 1 naming the bad field of an invalid script, and 2 for a missing file', async () => {
    const script = await scriptFile('bad.json', { turns: [{ tool_calls: [{ arguments: {} }] }] });
    const invalid = await runCli(['llm-replay', '--script', script]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('turns[0].tool_calls[0].name: required');
    expect(invalid.stdout).toBe('');
    const missing = await runCli(['llm-replay', '--script', join(dir, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read');
  });

  it('is listed in the help', async () => {
    const help = await runCli(['--help']);
    expect(help.stdout).toMatch(/llm-replay\s+Start the scripted LLM server/);
  });
});
