import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isRunning } from '../../src/tools/terminal/processes.ts';
import {
  type TerminalAction,
  type TerminalObservation,
  type TerminalToolOptions,
  createTerminalTool,
} from '../../src/tools/terminal/terminal-tool.ts';
import type { Tool, ToolContext } from '../../src/tools/tool.ts';

const SECRET = 'sup3r-s3cret-t0ken';

let root: string;
let workspace: string;
let stateDir: string;
let tools: Tool<TerminalAction, TerminalObservation>[];

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'bosun-terminal-test-')));
  workspace = join(root, 'workspace');
  stateDir = join(root, 'state');
  await mkdir(join(workspace, 'sub'), { recursive: true });
  tools = [];
});

afterEach(async () => {
  await Promise.all(tools.map((tool) => tool.close?.()));
  await rm(root, { recursive: true, force: true });
});

function terminal(options: TerminalToolOptions = {}): Tool<TerminalAction, TerminalObservation> {
  const tool = createTerminalTool({ softTimeoutMs: 10_000, ...options });
  tools.push(tool);
  return tool;
}

function context(signal: AbortSignal = new AbortController().signal): ToolContext {
  return { workspace, stateDir, signal, mask: (text) => text.replaceAll(SECRET, '<secret-hidden>') };
}

function action(command: string, extra: Partial<TerminalAction> = {}): TerminalAction {
  return { kind: 'TerminalAction', command, is_input: false, reset: false, ...extra };
}

function text(observation: TerminalObservation): string {
  const [first] = observation.content;
  return first && first.type === 'text' ? first.text : '';
}

/** Asserts that the command finished with exit code `code`, its output containing `output`. */
function expectExit(observation: TerminalObservation, code: number, output: string): void {
  expect(observation.exit_code).toBe(code);
  expect(text(observation)).toContain(output);
}

async function run(tool: Tool<TerminalAction, TerminalObservation>, command: string, extra?: Partial<TerminalAction>) {
  return tool.execute(action(command, extra), context());
}

/** Generous hard timeout for steps expected to finish: the soft timeout then does not apply, so load cannot flake them. */
const FINISHES = { timeout: 20 };

/** Reads with `""` until the command finished (bounded), returning every observation. */
async function readUntilFinished(tool: Tool<TerminalAction, TerminalObservation>): Promise<TerminalObservation[]> {
  const seen: TerminalObservation[] = [];
  for (let i = 0; i < 40; i++) {
    const observation = await run(tool, '');
    seen.push(observation);
    if (observation.exit_code !== -1) break;
  }
  return seen;
}

async function waitGone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (!(await isRunning(pid))) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

describe('terminal tool', () => {
  it('describes itself like OpenHands', () => {
    const tool = terminal();
    expect(tool.name).toBe('terminal');
    expect(tool.readOnly).toBe(false);
    expect(tool.definition).toMatchObject({
      kind: 'TerminalTool',
      title: 'terminal',
      action_type: 'TerminalAction',
      observation_type: 'TerminalObservation',
      annotations: { title: 'terminal', readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    });
    expect(tool.definition.description).toContain('is_input');
    expect(Object.keys(tool.parameters.properties as object).sort()).toEqual([
      'command',
      'is_input',
      'reset',
      'timeout',
    ]);
  });

  it('reports exit codes, the working directory and metadata', async () => {
    const tool = terminal();
    const ok = await run(tool, 'echo hello');
    expect(ok.exit_code).toBe(0);
    expect(ok.is_error).toBe(false);
    expect(text(ok)).toBe(`hello\n[Current working directory: ${workspace}]\n[Command finished with exit code 0]`);
    expect(ok.metadata).toMatchObject({
      exit_code: 0,
      working_dir: workspace,
      username: userInfo().username,
      hostname: hostname(),
    });
    expect(ok.metadata.pid).toBeGreaterThan(0);

    expect((await run(tool, 'false')).exit_code).toBe(1);
    const missing = await run(tool, 'ls /definitely/not/here');
    expectExit(missing, 2, 'No such file or directory');
    expect((await run(tool, '(exit 42)')).exit_code).toBe(42);
  });

  it('keeps cd and export between commands', async () => {
    const tool = terminal();
    expect((await run(tool, 'cd sub && export GREETING=bonjour')).metadata.working_dir).toBe(join(workspace, 'sub'));
    const after = await run(tool, 'echo "$GREETING from $(pwd)"');
    expect(text(after)).toContain(`bonjour from ${join(workspace, 'sub')}`);
    expect(after.metadata.working_dir).toBe(join(workspace, 'sub'));
  });

  it('runs multi-line commands as one unit and merges stderr', async () => {
    const tool = terminal();
    const multi = await run(tool, 'echo one\necho two >&2\nfor i in 1 2; do echo "n$i"; done\ncat <<EOF\nheredoc\nEOF');
    expect(multi.exit_code).toBe(0);
    expect(text(multi)).toMatch(/^one\ntwo\nn1\nn2\nheredoc\n\[Current working directory/);
  });

  it('reports a syntax error instead of waiting for more input', async () => {
    const tool = terminal();
    const broken = await run(tool, 'echo "unbalanced');
    expectExit(broken, 2, 'unexpected EOF');
    expect((await run(tool, 'echo fine')).exit_code).toBe(0);
  });

  it('interrupts a command at its hard timeout and keeps the shell usable', async () => {
    const tool = terminal();
    const slow = await run(tool, 'echo started; sleep 100', { timeout: 1 });
    expect(slow.timeout).toBe(true);
    expectExit(slow, 130, 'started');
    expect(text(slow)).toContain('timed out after 1 seconds');
    const next = await run(tool, 'echo still alive');
    expectExit(next, 0, 'still alive');
  });

  it('returns at the soft timeout and continues reading with an empty command', async () => {
    const tool = terminal({ softTimeoutMs: 500 });
    const first = await run(
      tool,
      'echo waiting; while [ ! -e go ]; do sleep 0.05; done; echo finished; exit_code_is() { return 7; }; exit_code_is',
    );
    expect(first.exit_code).toBe(-1);
    expect(first.timeout).toBe(false);
    expect(text(first)).toContain('no new output after 0.5 seconds');
    expect(text(first)).not.toContain('[Command finished');
    await writeFile(join(workspace, 'go'), '');
    const rest = await readUntilFinished(tool);
    const last = rest.at(-1)!;
    expectExit(last, 7, '[Below is the output of the previous command.]');
    const all = [first, ...rest].map(text).join('\n');
    expect(all).toContain('waiting');
    expect(all).toContain('finished');
  });

  it('reports the exit code of a command that finished between two reads', async () => {
    const tool = terminal({ softTimeoutMs: 400 });
    const first = await run(tool, 'while [ ! -e go ]; do sleep 0.05; done; echo done-now');
    expect(first.exit_code).toBe(-1);
    await writeFile(join(workspace, 'go'), '');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const last = (await readUntilFinished(tool)).at(-1)!;
    expectExit(last, 0, 'done-now');
    const nothing = await run(tool, '');
    expect(nothing.is_error).toBe(true);
    expect(text(nothing)).toContain('No previous running command');
  });

  it('interrupts a running command with C-c sent as input', async () => {
    const tool = terminal({ softTimeoutMs: 400 });
    expect((await run(tool, 'sleep 100')).exit_code).toBe(-1);
    const interrupted = await run(tool, 'C-c', { is_input: true, ...FINISHES });
    expectExit(interrupted, 130, '[Command finished with exit code 130]');
    expect((await run(tool, 'echo ok')).exit_code).toBe(0);
  });

  it('sends text to a program waiting for input', async () => {
    const tool = terminal({ softTimeoutMs: 400 });
    const prompt = await run(tool, 'read -r -p "name? " name; echo "hello $name"');
    expectExit(prompt, -1, 'name?');
    const answered = await run(tool, 'bosun', { is_input: true, ...FINISHES });
    expectExit(answered, 0, 'hello bosun');
    const stray = await run(tool, 'C-c', { is_input: true });
    expect(stray.is_error).toBe(true);
    expect(text(stray)).toContain('No previous running command to interact with.');
  });

  it('refuses a new command while one is still running', async () => {
    const tool = terminal({ softTimeoutMs: 400 });
    expect((await run(tool, 'echo busy; sleep 100')).exit_code).toBe(-1);
    const refused = await run(tool, 'echo other');
    expect(refused.is_error).toBe(true);
    expectExit(refused, -1, 'Your command "echo other" is NOT executed');
    expect(text(refused)).not.toContain('other\n');
    const stopped = await run(tool, 'C-c', FINISHES);
    expect(stopped.exit_code).toBe(130);
    expect(text(await run(tool, 'echo other'))).toContain('other');
  });

  it('truncates huge output and saves the full output', async () => {
    const tool = terminal({ softTimeoutMs: 10_000 });
    const huge = await run(tool, 'seq 1 200000');
    expect(huge.exit_code).toBe(0);
    const shown = text(huge);
    expect(shown.length).toBeLessThan(31_000);
    expect(shown.startsWith('1\n2\n3\n')).toBe(true);
    expect(shown).toContain('199999\n200000\n[Current working directory');
    expect(shown).toContain('<response clipped>');
    expect(huge.full_output_save_dir).toBe(join(stateDir, 'observations'));
    const files = readdirSync(huge.full_output_save_dir!);
    expect(files).toHaveLength(1);
    const full = readFileSync(join(huge.full_output_save_dir!, files[0]!), 'utf8');
    expect(shown).toContain(join(huge.full_output_save_dir!, files[0]!));
    expect(full.split('\n')).toHaveLength(200000);
    expect(full.endsWith('\n199999\n200000')).toBe(true);
    expect((await run(tool, 'echo small')).full_output_save_dir).toBeNull();
  });

  it('survives binary output and strips escape sequences', async () => {
    const tool = terminal();
    const binary = await run(
      tool,
      "printf '\\x00\\x01\\x1b[31mred\\x1b[0m\\xff\\xfe\\n'; head -c 4000 /dev/urandom; echo; echo END",
    );
    expect(binary.exit_code).toBe(0);
    const shown = text(binary);
    expect(shown).toContain('red');
    expect(shown).toContain('END\n[Current working directory');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: checks that control characters were removed.
    expect(shown).not.toMatch(/[\x00-\x08\x1b]/);
    expect(text(await run(tool, 'echo after'))).toContain('after');
  });

  it('exports extra env into the shell and masks secrets', async () => {
    const tool = terminal({ env: { API_TOKEN: SECRET } });
    const echoed = await run(tool, 'echo "token=$API_TOKEN"');
    expect(text(echoed)).toContain('token=<secret-hidden>');
    expect(text(echoed)).not.toContain(SECRET);
    const env = await run(tool, 'echo "$TERM|$PS1|$PS2"');
    expect(text(env)).toContain('dumb||');
  });

  it("keeps the server's own secrets out of the shell", async () => {
    process.env.BOSUN_TEST_SESSION_KEY = 'server-session-key';
    process.env.SOME_SERVICE_API_KEY = 'server-api-key';
    try {
      const observation = await run(
        terminal(),
        'echo "[${BOSUN_TEST_SESSION_KEY:-unset}] [${SOME_SERVICE_API_KEY:-unset}] [${HOME:+home}]"',
        FINISHES,
      );
      expect(text(observation)).toContain('[unset] [unset] [home]');
    } finally {
      delete process.env.BOSUN_TEST_SESSION_KEY;
      delete process.env.SOME_SERVICE_API_KEY;
    }
  });

  it('resets the shell', async () => {
    const tool = terminal();
    const before = await run(tool, 'cd sub && export KEPT=yes');
    const reset = await run(tool, 'echo "[$KEPT]"; pwd', { reset: true });
    expectExit(reset, 0, 'Terminal session has been reset');
    expect(text(reset)).toContain(`[]\n${workspace}`);
    expect(reset.metadata.pid).not.toBe(before.metadata.pid);
    expect(await waitGone(before.metadata.pid)).toBe(true);
    const resetOnly = await run(tool, '', { reset: true });
    expectExit(resetOnly, 0, 'Terminal session has been reset');
  });

  it('starts a new shell after the shell exited', async () => {
    const tool = terminal();
    const exited = await run(tool, 'exit 3');
    expectExit(exited, 3, 'The shell exited');
    const next = await run(tool, 'echo reborn');
    expect(next.exit_code).toBe(0);
    expect(next.metadata.pid).not.toBe(exited.metadata.pid);
  });

  it('interrupts the running command when the context is aborted', async () => {
    const tool = terminal({ softTimeoutMs: 20_000 });
    expect((await run(tool, 'true')).exit_code).toBe(0);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    const aborted = await tool.execute(action('sleep 100'), context(controller.signal));
    expect(Date.now() - started).toBeLessThan(10_000);
    expectExit(aborted, 130, 'interrupted with Ctrl-C');
    expect((await run(tool, 'echo ok')).exit_code).toBe(0);
  });

  it('kills the shell and everything it started on close', async () => {
    const tool = terminal();
    const started = await run(tool, 'sleep 1000 > /dev/null 2>&1 & echo "bg=$!"');
    const background = Number(/bg=(\d+)/.exec(text(started))?.[1]);
    const shell = started.metadata.pid;
    expect(background).toBeGreaterThan(0);
    expect(await isRunning(background)).toBe(true);
    await tool.close?.();
    expect(await waitGone(shell)).toBe(true);
    expect(await waitGone(background)).toBe(true);
    const afterClose = await run(tool, 'echo hi');
    expect(afterClose.is_error).toBe(true);
    expect(existsSync(join(stateDir, 'observations'))).toBe(false);
  });
});
