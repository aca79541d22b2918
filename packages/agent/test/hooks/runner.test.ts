import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HookLogRecord, HookRunner, normalizeHookConfig } from '@bosun/agent';
import type { HookConfig } from '@bosun/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let workspace: string;
beforeEach(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'bosun-hook-runner-')));
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

function runner(config: HookConfig, log: HookLogRecord[] = [], secrets: string[] = []) {
  return new HookRunner(normalizeHookConfig(config), {
    workspace,
    log: (record) => log.push(record),
    mask: () => (text) => secrets.reduce((masked, secret) => masked.split(secret).join('<secret-hidden>'), text),
  });
}

const command = (text: string, timeout?: number) => ({ command: text, ...(timeout ? { timeout } : {}) });

describe('the hooks of one event', () => {
  it('run in order, stop at the first block, and say who blocked', async () => {
    const log: HookLogRecord[] = [];
    const hooks = runner(
      {
        PreToolUse: [
          { matcher: 'terminal', hooks: [command('echo one >> order.txt')] },
          { matcher: '*', hooks: [command('echo two >> order.txt; echo "second says no" >&2; exit 2')] },
          { hooks: [command('echo three >> order.txt')] },
        ],
      } as HookConfig,
      log,
    );
    const decision = await hooks.run('PreToolUse', 's1', { toolName: 'terminal' });
    expect(decision).toEqual({ blocked: true, reason: 'second says no', additionalContext: [] });
    expect(await readFile(join(workspace, 'order.txt'), 'utf8')).toBe('one\ntwo\n');
    expect(log.map((r) => [r.event, r.outcome, r.exit_code, r.tool_name])).toEqual([
      ['PreToolUse', 'allow', 0, 'terminal'],
      ['PreToolUse', 'block', 2, 'terminal'],
    ]);
  });

  it('only hooks whose matcher selects the tool run', async () => {
    const hooks = runner({ PreToolUse: [{ matcher: 'file_editor', hooks: [command('exit 2')] }] } as HookConfig);
    expect(hooks.has('PreToolUse', 'terminal')).toBe(false);
    expect(await hooks.run('PreToolUse', 's1', { toolName: 'terminal' })).toMatchObject({ blocked: false });
    expect(await hooks.run('PreToolUse', 's1', { toolName: 'file_editor' })).toMatchObject({ blocked: true });
  });

  it('a hook with `if` runs only for the tool calls its rule selects', async () => {
    const log: HookLogRecord[] = [];
    const hooks = runner(
      {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ command: 'echo ran >> ran.txt; echo "test first" >&2; exit 2', if: 'Bash(git commit:*)' }],
          },
        ],
      } as HookConfig,
      log,
    );
    const call = (command: string) => ({ toolName: 'terminal', toolInput: { kind: 'TerminalAction', command } });
    expect(hooks.has('PreToolUse', 'terminal', { command: 'ls -la' })).toBe(false);
    expect(hooks.has('PreToolUse', 'terminal', { command: 'git commit -m x' })).toBe(true);
    expect(await hooks.run('PreToolUse', 's1', call('ls -la'))).toMatchObject({ blocked: false });
    expect(await hooks.run('PreToolUse', 's1', call('git add . && git commit -m x'))).toEqual({
      blocked: true,
      reason: 'test first',
      additionalContext: [],
    });
    expect(log).toHaveLength(1);
    expect(await readFile(join(workspace, 'ran.txt'), 'utf8')).toBe('ran\n');
  });

  it('a failing or timed-out hook does not block, and the next one still runs', async () => {
    const log: HookLogRecord[] = [];
    const hooks = runner(
      {
        Stop: [
          {
            hooks: [
              command('exit 1'),
              command('sleep 20', 0.2),
              command(`echo '{"decision": nope'`),
              command(`echo '{"additionalContext":"last one ran"}'`),
            ],
          },
        ],
      } as HookConfig,
      log,
    );
    expect(await hooks.run('Stop', 's1')).toEqual({
      blocked: false,
      reason: null,
      additionalContext: ['last one ran'],
    });
    expect(log.map((r) => r.outcome)).toEqual(['error', 'error', 'error', 'allow']);
    expect(log[1]?.error).toBe('timed out after 0.2 s');
  });

  it('passes the event JSON and the environment; masks secrets in what hooks say and in the log', async () => {
    const log: HookLogRecord[] = [];
    const hooks = runner(
      {
        user_prompt_submit: [
          {
            hooks: [
              command(
                'cat > input.json; env | grep -E "^(OPENHANDS|CLAUDE)_" | sort > env.txt; echo "key s3cr3t-value"',
              ),
              command('echo "leaked s3cr3t-value" >&2; exit 1'),
            ],
          },
        ],
      } as HookConfig,
      log,
      ['s3cr3t-value'],
    );
    const decision = await hooks.run('UserPromptSubmit', 'conv-1', { prompt: 'hello' });
    expect(decision.additionalContext).toEqual(['key <secret-hidden>']);
    expect(log[1]?.error).toBe('exit code 1: leaked <secret-hidden>');
    const input = JSON.parse(await readFile(join(workspace, 'input.json'), 'utf8'));
    expect(input).toMatchObject({
      session_id: 'conv-1',
      hook_event_name: 'UserPromptSubmit',
      event_type: 'UserPromptSubmit',
      prompt: 'hello',
      message: 'hello',
      cwd: workspace,
      working_dir: workspace,
    });
    expect((await readFile(join(workspace, 'env.txt'), 'utf8')).trim().split('\n')).toEqual([
      `CLAUDE_PROJECT_DIR=${workspace}`,
      'OPENHANDS_EVENT_TYPE=UserPromptSubmit',
      `OPENHANDS_PROJECT_DIR=${workspace}`,
      'OPENHANDS_SESSION_ID=conv-1',
    ]);
  });

  it('ignoreBlocks: every hook runs, nothing blocks, and the log says why', async () => {
    const log: HookLogRecord[] = [];
    const hooks = runner({ Stop: [{ hooks: [command('exit 2'), command('exit 2')] }] } as HookConfig, log);
    expect(await hooks.run('Stop', 's1', {}, { ignoreBlocks: 'round limit' })).toMatchObject({ blocked: false });
    expect(log.map((r) => [r.outcome, r.note])).toEqual([
      ['block', 'round limit'],
      ['block', 'round limit'],
    ]);
  });

  it('an event without hooks runs nothing', async () => {
    const hooks = runner({});
    expect(hooks.has('Stop')).toBe(false);
    expect(await hooks.run('Stop', 's1')).toEqual({ blocked: false, reason: null, additionalContext: [] });
  });
});
