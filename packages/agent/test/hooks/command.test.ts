import { access, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CommandHook, DEFAULT_BLOCK_REASON, interpretHookOutput, runCommandHook } from '@bosun/agent';
import type { HookEventName } from '@bosun/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

let cwd: string;
beforeEach(async () => {
  cwd = await realpath(await mkdtemp(join(tmpdir(), 'bosun-hooks-')));
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

const hook = (command: string, timeoutSeconds = 10): CommandHook => ({
  type: 'command',
  command,
  timeoutSeconds,
  name: null,
});
const run = (command: string, event: HookEventName = 'PreToolUse', timeoutSeconds = 10, input: unknown = {}) =>
  runCommandHook(hook(command, timeoutSeconds), event, input, { cwd });

describe('running a command hook', () => {
  it('exit 0 without output allows', async () => {
    expect(await run('true')).toMatchObject({ outcome: 'allow', exitCode: 0, reason: null, error: null });
  });

  it('exit 2 blocks with stderr as the reason (else a JSON reason, else a default)', async () => {
    expect(await run('echo "no rm here" >&2; exit 2')).toMatchObject({
      outcome: 'block',
      exitCode: 2,
      reason: 'no rm here',
    });
    expect(await run(`echo '{"reason":"from json"}'; exit 2`)).toMatchObject({ outcome: 'block', reason: 'from json' });
    expect(await run('exit 2')).toMatchObject({ outcome: 'block', reason: DEFAULT_BLOCK_REASON });
  });

  it('JSON on stdout blocks with decision block/deny, permissionDecision deny or continue false', async () => {
    const cases: [string, string][] = [
      [`{"decision":"block","reason":"blocked by policy"}`, 'blocked by policy'],
      [`{"decision":"deny","reason":"denied"}`, 'denied'],
      [
        `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"not that file"}}`,
        'not that file',
      ],
      [`{"continue":false,"stopReason":"stop everything"}`, 'stop everything'],
      [`{"decision":"block"}`, DEFAULT_BLOCK_REASON],
    ];
    for (const [json, reason] of cases) {
      expect(await run(`printf '%s' '${json}'`), json).toMatchObject({ outcome: 'block', exitCode: 0, reason });
    }
  });

  it('JSON that allows, with context', async () => {
    const result = await run(
      `echo '{"decision":"approve","hookSpecificOutput":{"permissionDecision":"allow","additionalContext":"be careful"}}'`,
    );
    expect(result).toMatchObject({ outcome: 'allow', additionalContext: 'be careful' });
    expect(await run(`echo '{"additionalContext":"openhands style"}'`)).toMatchObject({
      outcome: 'allow',
      additionalContext: 'openhands style',
    });
  });

  it('Stop: `continue: false` lets the agent stop (Claude Code), even with decision block', () => {
    expect(interpretHookOutput('Stop', 0, '{"continue":false,"stopReason":"enough"}', '')).toMatchObject({
      outcome: 'allow',
    });
    expect(interpretHookOutput('Stop', 0, '{"decision":"block","continue":false}', '')).toMatchObject({
      outcome: 'allow',
    });
    expect(interpretHookOutput('Stop', 0, '{"decision":"block","reason":"tests fail"}', '')).toMatchObject({
      outcome: 'block',
      reason: 'tests fail',
    });
  });

  it('plain stdout is context for UserPromptSubmit and SessionStart only', async () => {
    expect(await run('echo "today is Monday"', 'UserPromptSubmit')).toMatchObject({
      outcome: 'allow',
      additionalContext: 'today is Monday',
    });
    expect(await run('echo "ignored"', 'PreToolUse')).toMatchObject({ outcome: 'allow', additionalContext: null });
  });

  it('failures never block: other exit codes, bad JSON, a crash, a command that does not exist', async () => {
    expect(await run('echo "boom" >&2; exit 1')).toMatchObject({
      outcome: 'error',
      exitCode: 1,
      error: 'exit code 1: boom',
    });
    // JSON that would block is not read from a failing hook.
    expect(await run(`echo '{"decision":"block"}'; exit 3`)).toMatchObject({ outcome: 'error', exitCode: 3 });
    expect(await run(`echo '{"decision": block}'`)).toMatchObject({ outcome: 'error', exitCode: 0 });
    expect((await run(`echo '{"decision": block}'`)).error).toMatch(/^invalid JSON on stdout/);
    expect(await run('kill -9 $$')).toMatchObject({ outcome: 'error', exitCode: null, error: 'killed by SIGKILL' });
    expect(await run('no-such-command-for-hooks')).toMatchObject({ outcome: 'error', exitCode: 127 });
  });

  it('a timeout kills the hook and its children and never blocks', async () => {
    const started = Date.now();
    const result = await run(
      `sleep 30 & echo $! > child.pid; echo "blocking" >&2; sleep 30; exit 2`,
      'PreToolUse',
      0.3,
    );
    expect(result).toMatchObject({ outcome: 'error', exitCode: null, error: 'timed out after 0.3 s' });
    expect(Date.now() - started).toBeLessThan(5000);
    const child = Number(await readFile(join(cwd, 'child.pid'), 'utf8'));
    // The kill is sent; wait until the kernel has carried it out. Gone, or a zombie waiting for its reaper: no
    // longer running either way.
    await vi.waitFor(async () => {
      const state = await readFile(`/proc/${child}/stat`, 'utf8').then(
        (stat) => stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3),
        () => 'gone',
      );
      expect(['gone', 'Z', 'X']).toContain(state);
    });
  });

  it('an abort kills the hook', async () => {
    const controller = new AbortController();
    const running = runCommandHook(
      hook('touch started; sleep 30'),
      'PreToolUse',
      {},
      { cwd, signal: controller.signal },
    );
    // Aborted once the hook runs, not before it starts.
    await vi.waitFor(() => access(join(cwd, 'started')));
    controller.abort();
    const result = await running;
    expect(result).toMatchObject({ outcome: 'error', error: 'aborted' });
  });

  it('does not wait for a background process that keeps stdout open', async () => {
    const started = Date.now();
    const result = await run('sleep 30 & echo "bye" >&2; exit 2', 'PreToolUse', 20);
    expect(result).toMatchObject({ outcome: 'block', reason: 'bye' });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('runs in the workspace with the event on stdin and without the server credentials', async () => {
    process.env.BOSUN_TEST_HOOK_SECRET_TOKEN = 'server-only';
    try {
      const input = { hook_event_name: 'PreToolUse', big: 'x'.repeat(300_000) };
      const result = await runCommandHook(hook('cat > stdin.json; pwd > cwd.txt; env > env.txt'), 'PreToolUse', input, {
        cwd,
        env: { OPENHANDS_EVENT_TYPE: 'PreToolUse' },
      });
      expect(result.outcome).toBe('allow');
      expect(JSON.parse(await readFile(join(cwd, 'stdin.json'), 'utf8'))).toEqual(input);
      expect((await readFile(join(cwd, 'cwd.txt'), 'utf8')).trim()).toBe(cwd);
      const env = await readFile(join(cwd, 'env.txt'), 'utf8');
      expect(env).toContain('OPENHANDS_EVENT_TYPE=PreToolUse');
      expect(env).not.toContain('BOSUN_TEST_HOOK_SECRET_TOKEN');
    } finally {
      delete process.env.BOSUN_TEST_HOOK_SECRET_TOKEN;
    }
  });

  it('a hook that never reads its (large) stdin is fine', async () => {
    expect(await run('exit 0', 'PreToolUse', 10, { big: 'x'.repeat(2_000_000) })).toMatchObject({ outcome: 'allow' });
  });
});
