import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../bin/bosun.js', import.meta.url));
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bosun-log-format-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * Runs `bosun agent-server` on a terminal (script(1) gives it one), makes one request, and returns everything it
 * wrote up to that request's log line.
 */
function onTerminal(extra: string[], until: RegExp): Promise<string> {
  const args = [
    process.execPath,
    CLI,
    'agent-server',
    '--port',
    '0',
    '--data-dir',
    join(dir, extra.join('')),
    ...extra,
  ];
  const command = args.map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ');
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('BOSUN_')));
  const child = spawn('script', ['-qfec', command, '/dev/null'], { env: clean, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  let asked = false;
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url && !asked && /No default LLM/.test(output)) {
        asked = true;
        fetch(`${url}/health`).catch(reject);
      }
      if (until.test(output)) {
        child.kill('SIGTERM');
        resolve(output.replaceAll('\r', ''));
      }
    });
    child.once('exit', () => reject(new Error(`exited before ${until}:\n${output}`)));
  });
}

describe('logs on a terminal', () => {
  it('are readable lines by default, a request as one line, before the banner', async () => {
    const output = await onTerminal([], /GET \/health -> 200/);
    expect(output).not.toContain('{"level"');
    expect(output).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}Server listening at http:\/\/127\.0\.0\.1:\d+$/m);
    expect(output).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}GET \/health -> 200 in \d+\.\d ms$/m);
    expect(output).not.toContain('incoming request');
  }, 180_000);

  it('are JSON lines when asked (--log-format json)', async () => {
    const output = await onTerminal(['--log-format', 'json'], /"msg":"request completed"/);
    expect(output).toMatch(/^\{"level":30,.*"msg":"Server listening at http:\/\/127\.0\.0\.1:\d+"\}$/m);
  }, 180_000);
});
