import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runCli } from './io.ts';
import { scratchDir } from './scratch.ts';

const pause = { kind: 'PauseEvent' };
const message = {
  id: 'm1',
  kind: 'MessageEvent',
  source: 'user',
  llm_message: { role: 'user', content: [{ type: 'text', text: 'hi' }] },
};

const scratch = scratchDir('bosun-validate-');
const file = (name: string, text: string) => scratch.write(name, text);

describe('bosun validate', () => {
  it('accepts valid JSON Lines and exits 0', async () => {
    const path = await file('ok.jsonl', `${JSON.stringify(pause)}\n\n${JSON.stringify(message)}\n`);
    const result = await runCli(['validate', path]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('2 events checked, 0 invalid');
  });

  it('reports each invalid event with its line, kind, id and every problem', async () => {
    const bad = { ...message, source: undefined, extra: 1, llm_message: { role: 'bot' } };
    const path = await file('bad.jsonl', `${JSON.stringify(pause)}\n${JSON.stringify(bad)}\n`);
    const result = await runCli(['validate', path]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`${path}:2: invalid MessageEvent (id m1)`);
    expect(result.stdout).toContain('  source: Field required [missing]');
    expect(result.stdout).toContain('  extra: Extra inputs are not permitted [extra_forbidden]');
    expect(result.stdout).toContain(
      `  llm_message.role: Input should be 'user', 'system', 'assistant' or 'tool', got "bot" [enum]`,
    );
    expect(result.stderr).toContain('2 events checked, 1 invalid');
  });

  it('reads a JSON array and reports the line each element starts on', async () => {
    const text = `[\n  ${JSON.stringify(pause)},\n  {\n    "kind": "Nope"\n  },\n  ${JSON.stringify(message)}\n]\n`;
    const result = await runCli(['validate', await file('array.json', text)]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/array\.json:3: invalid Nope\n {2}kind: Input tag 'Nope' found using 'kind'/);
    expect(result.stderr).toContain('3 events checked, 1 invalid');
  });

  it('reports a line that is not JSON and goes on with the others', async () => {
    const path = await file('syntax.jsonl', `{bad\n${JSON.stringify({ kind: 'TokenEvent' })}\n`);
    const result = await runCli(['validate', path]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`${path}:1: invalid event\n  (event): Invalid JSON:`);
    expect(result.stdout).toContain(`${path}:2: invalid TokenEvent`);
    expect(result.stdout).toContain('  prompt_token_ids: Field required [missing]');
  });

  it("reads standard input for '-'", async () => {
    const result = await runCli(
      ['validate', '-'],
      `${JSON.stringify({ kind: 'Condensation', llm_response_id: 'r', summary_offset: -1 })}\n`,
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('<stdin>:1: invalid Condensation');
    expect(result.stdout).toContain(
      'summary_offset: Input should be greater than or equal to 0, got -1 [greater_than_equal]',
    );
  });

  it('prints machine-readable problems with --json', async () => {
    const path = await file('json.jsonl', `${JSON.stringify({ kind: 'PauseEvent', source: 'robot' })}\n`);
    const result = await runCli(['validate', '--json', path]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      file: path,
      line: 1,
      kind: 'PauseEvent',
      errors: [{ loc: ['source'], msg: `Input should be 'agent', 'user' or 'environment', got "robot"`, type: 'enum' }],
    });
  });

  it('exits 2 for a missing file or no file', async () => {
    const missing = await runCli(['validate', join(scratch.dir, 'nope.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read: ENOENT');
    const none = await runCli(['validate']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no file given');
  });
});

describe('bosun command', () => {
  it('runs from the repository root through the bin link', async () => {
    const path = await file('bin.jsonl', `${JSON.stringify(pause)}\n`);
    const run = promisify(execFile);
    const { stdout, stderr } = await run(join(process.cwd(), 'node_modules/.bin/bosun'), ['validate', path]);
    expect(stdout).toBe('');
    expect(stderr).toContain('1 event checked, 0 invalid');
  });

  it('prints help and rejects unknown commands', async () => {
    expect((await runCli([])).stdout).toContain('Usage: bosun <command>');
    const unknown = await runCli(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
    // Names of the object's own, not of its prototype: still unknown.
    expect((await runCli(['constructor'])).code).toBe(2);
  });

  it('runs each listed command by the name it has (each is loaded only when it runs)', async () => {
    const listed = [...(await runCli(['--help'])).stdout.matchAll(/^ {2}([a-z-]+) {2,}/gm)].map((match) => match[1]);
    expect(listed).toContain('agent-server');
    expect(listed.length).toBeGreaterThanOrEqual(17);
    for (const name of listed) {
      const help = await runCli([name as string, '--help']);
      expect(help.code, name).toBe(0);
      expect(help.stdout, name).toContain(`bosun ${name}`);
    }
  });
});
