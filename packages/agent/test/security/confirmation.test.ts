import {
  Agent,
  acceptedByRun,
  actionRisk,
  analyzeAction,
  createFinishTool,
  createWriteFileTool,
  needsConfirmation,
  shouldConfirm,
  terminalCwd,
} from '@bosun/agent';
import {
  type Action,
  AgentSpec,
  ConfirmationPolicy,
  type ConversationExecutionStatus,
  type Event,
  type SecurityAnalyzer,
  parse,
  parseEvent,
} from '@bosun/protocol';
import { describe, expect, it } from 'vitest';
import { RunSession } from '../support/run-session.ts';
import { scriptedProvider } from '../support/scripted-provider.ts';
import { sandbox } from '../tools/support.ts';

const RISKS = ['LOW', 'MEDIUM', 'HIGH', 'UNKNOWN'] as const;

describe('confirmation policies', () => {
  const table: [ConfirmationPolicy, Record<(typeof RISKS)[number], boolean>][] = [
    [{ kind: 'NeverConfirm' }, { LOW: false, MEDIUM: false, HIGH: false, UNKNOWN: false }],
    [{ kind: 'AlwaysConfirm' }, { LOW: true, MEDIUM: true, HIGH: true, UNKNOWN: true }],
    [
      { kind: 'ConfirmRisky', threshold: 'HIGH', confirm_unknown: true },
      { LOW: false, MEDIUM: false, HIGH: true, UNKNOWN: true },
    ],
    [
      { kind: 'ConfirmRisky', threshold: 'MEDIUM', confirm_unknown: true },
      { LOW: false, MEDIUM: true, HIGH: true, UNKNOWN: true },
    ],
    [
      { kind: 'ConfirmRisky', threshold: 'LOW', confirm_unknown: false },
      { LOW: true, MEDIUM: true, HIGH: true, UNKNOWN: false },
    ],
    [
      { kind: 'ConfirmRisky', threshold: 'HIGH', confirm_unknown: false },
      { LOW: false, MEDIUM: false, HIGH: true, UNKNOWN: false },
    ],
  ];
  it.each(table)('%j', (policy, expected) => {
    for (const risk of RISKS) expect(shouldConfirm(policy, risk), risk).toBe(expected[risk]);
  });

  it('ConfirmRisky defaults to threshold HIGH and confirm_unknown true', () => {
    const policy = parse(ConfirmationPolicy, { kind: 'ConfirmRisky' });
    expect(policy).toEqual({ kind: 'ConfirmRisky', threshold: 'HIGH', confirm_unknown: true });
    expect(shouldConfirm({ kind: 'ConfirmRisky' } as ConfirmationPolicy, 'HIGH')).toBe(true);
    expect(shouldConfirm({ kind: 'ConfirmRisky' } as ConfirmationPolicy, 'UNKNOWN')).toBe(true);
    expect(shouldConfirm({ kind: 'ConfirmRisky' } as ConfirmationPolicy, 'MEDIUM')).toBe(false);
  });

  const act = (action: Action | null, risk: (typeof RISKS)[number] = 'UNKNOWN') => ({ action, security_risk: risk });
  const finish: Action = { kind: 'FinishAction', message: 'done' };
  const think: Action = { kind: 'ThinkAction', thought: 'hmm' };
  const command: Action = { kind: 'TerminalAction', command: 'ls', is_input: false, reset: false };

  it('never holds a single finish or think call, even under AlwaysConfirm', () => {
    const always: ConfirmationPolicy = { kind: 'AlwaysConfirm' };
    expect(needsConfirmation([act(finish)], always)).toBe(false);
    expect(needsConfirmation([act(think)], always)).toBe(false);
    expect(needsConfirmation([act(think), act(finish)], always)).toBe(true);
    expect(needsConfirmation([act(command)], always)).toBe(true);
    expect(needsConfirmation([act(null), act(finish)], always)).toBe(false);
    expect(needsConfirmation([], always)).toBe(false);
  });

  it('holds a response when any of its actions needs confirmation', () => {
    const risky: ConfirmationPolicy = { kind: 'ConfirmRisky', threshold: 'HIGH', confirm_unknown: false };
    expect(needsConfirmation([act(command, 'LOW'), act(command, 'MEDIUM')], risky)).toBe(false);
    expect(needsConfirmation([act(command, 'LOW'), act(command, 'HIGH')], risky)).toBe(true);
    expect(needsConfirmation([act(command, 'UNKNOWN')], risky)).toBe(false);
  });
});

describe('security analyzers', () => {
  const workspace = '/home/user/project';
  const context = { workspace, home: '/home/user' };
  const terminal = (cmd: string): Action => ({ kind: 'TerminalAction', command: cmd, is_input: false, reset: false });
  const args = (risk?: string) => JSON.stringify({ command: 'x', ...(risk ? { security_risk: risk } : {}) });
  const rules: SecurityAnalyzer = { kind: 'RuleBasedSecurityAnalyzer' };
  const llm: SecurityAnalyzer = { kind: 'LLMSecurityAnalyzer' };

  it('without an analyzer everything is UNKNOWN, whatever the LLM predicted', () => {
    const input = { action: terminal('rm -rf /'), toolCallArguments: args('HIGH'), readOnly: false };
    expect(analyzeAction(null, input, context)).toBe('UNKNOWN');
    expect(analyzeAction(undefined, input, context)).toBe('UNKNOWN');
  });

  it('the LLM analyzer takes the LLM prediction (UNKNOWN when absent or invalid)', () => {
    const of = (toolCallArguments: string) =>
      analyzeAction(llm, { action: terminal('rm -rf /'), toolCallArguments, readOnly: false }, context);
    expect(of(args('LOW'))).toBe('LOW');
    expect(of(args('MEDIUM'))).toBe('MEDIUM');
    expect(of(args('HIGH'))).toBe('HIGH');
    expect(of(args())).toBe('UNKNOWN');
    expect(of(args('CATASTROPHIC'))).toBe('UNKNOWN');
    expect(of('{not json')).toBe('UNKNOWN');
  });

  it('the rule-based analyzer takes the higher of the rules and the LLM prediction', () => {
    const of = (command: string, risk?: string) =>
      analyzeAction(rules, { action: terminal(command), toolCallArguments: args(risk), readOnly: false }, context);
    expect(of('rm -rf /', 'LOW')).toBe('HIGH');
    expect(of('ls', 'HIGH')).toBe('HIGH');
    expect(of('ls')).toBe('LOW');
    expect(of('ls', 'MEDIUM')).toBe('MEDIUM');
    expect(of('frobnicate')).toBe('UNKNOWN');
    expect(of('frobnicate', 'MEDIUM')).toBe('MEDIUM');
  });

  it('rates relative paths of terminal commands from where the terminal is now', () => {
    const input = { action: terminal('rm -rf nginx'), toolCallArguments: '{}', readOnly: false };
    expect(analyzeAction(rules, input, context)).toBe('MEDIUM');
    expect(analyzeAction(rules, input, { ...context, terminalCwd: '/etc' })).toBe('HIGH');
    const observation = (cwd: string) =>
      parseEvent({
        kind: 'ObservationEvent',
        source: 'environment',
        tool_name: 'terminal',
        tool_call_id: 'c',
        action_id: 'a',
        observation: {
          kind: 'TerminalObservation',
          content: [{ type: 'text', text: '' }],
          command: 'cd',
          exit_code: 0,
          metadata: { exit_code: 0, pid: 1, working_dir: cwd, prefix: '', suffix: '' },
        },
      });
    expect(terminalCwd([observation('/srv'), observation('/etc')])).toBe('/etc');
    expect(terminalCwd([])).toBeUndefined();
  });

  it('read-only tools are LOW under any analyzer', () => {
    const read: Action = { kind: 'ReadFileAction', file_path: '/etc/shadow' };
    for (const analyzer of [rules, llm]) {
      expect(analyzeAction(analyzer, { action: read, toolCallArguments: '{}', readOnly: true }, context)).toBe('LOW');
    }
  });

  it.each([
    [{ kind: 'FileEditorAction', command: 'view', path: '/etc/passwd' }, 'LOW'],
    [{ kind: 'FileEditorAction', command: 'create', path: `${workspace}/a.txt`, file_text: 'x' }, 'LOW'],
    [{ kind: 'FileEditorAction', command: 'create', path: '/etc/cron.d/job', file_text: 'x' }, 'HIGH'],
    [{ kind: 'FileEditorAction', command: 'str_replace', path: '/home/user/.bashrc', old_str: 'a' }, 'HIGH'],
    [{ kind: 'WriteFileAction', file_path: 'src/index.ts', content: '' }, 'LOW'],
    [{ kind: 'WriteFileAction', file_path: '../other/x', content: '' }, 'HIGH'],
    [
      { kind: 'EditAction', file_path: '/usr/lib/x', old_string: 'a', new_string: 'b', expected_replacements: 1 },
      'HIGH',
    ],
    [{ kind: 'TerminalAction', command: '', is_input: false, reset: false }, 'LOW'],
    [{ kind: 'TerminalAction', command: 'C-c', is_input: true, reset: false }, 'LOW'],
    [{ kind: 'TaskTrackerAction', command: 'view', task_list: [] }, 'LOW'],
    [{ kind: 'MCPToolAction', data: {} }, 'UNKNOWN'],
    [{ kind: 'BrowserNavigateAction', url: 'https://example.com', new_tab: false }, 'MEDIUM'],
    [{ kind: 'BrowserClickAction', index: 0, new_tab: false }, 'MEDIUM'],
    [{ kind: 'BrowserTypeAction', index: 0, text: 'x' }, 'MEDIUM'],
    [{ kind: 'BrowserSetStorageAction', storage_state: {} }, 'MEDIUM'],
    [{ kind: 'BrowserGetStorageAction' }, 'MEDIUM'],
    [{ kind: 'BrowserScrollAction', direction: 'down' }, 'LOW'],
    [{ kind: 'BrowserSwitchTabAction', tab_id: 'ab12' }, 'LOW'],
    [{ kind: 'BrowserStopRecordingAction' }, 'LOW'],
  ] as [Action, string][])('rules rate %j as %s', (action, risk) => {
    expect(actionRisk(action, context)).toBe(risk);
  });
});

describe('acceptedByRun', () => {
  const status = (value: ConversationExecutionStatus): Event =>
    parseEvent({ kind: 'ConversationStateUpdateEvent', source: 'environment', key: 'execution_status', value });
  const stats = parseEvent({ kind: 'ConversationStateUpdateEvent', source: 'environment', key: 'stats', value: {} });

  it('accepts only a run started right from waiting_for_confirmation', () => {
    expect(acceptedByRun([status('waiting_for_confirmation'), stats, status('running')])).toBe(true);
    expect(acceptedByRun([status('waiting_for_confirmation'), status('paused'), status('running')])).toBe(false);
    expect(acceptedByRun([status('idle'), status('running')])).toBe(false);
    expect(acceptedByRun([status('waiting_for_confirmation')])).toBe(false);
    expect(acceptedByRun([status('running')])).toBe(false);
    expect(acceptedByRun([])).toBe(false);
    const message = parseEvent({
      kind: 'MessageEvent',
      source: 'user',
      llm_message: { role: 'user', content: [{ type: 'text', text: 'wait, no' }] },
    });
    expect(acceptedByRun([status('waiting_for_confirmation'), message, status('running')])).toBe(false);
    expect(acceptedByRun([message, status('waiting_for_confirmation'), status('running')])).toBe(true);
  });
});

describe('the confirmation gate of the run loop', () => {
  it('keeps actions pending while paused, asks again on a run from paused, runs them on a run from waiting', async () => {
    const box = await sandbox();
    const agent = parse(AgentSpec, { llm: { model: 'fake' } });
    const write = { id: 'c1', name: 'write_file', arguments: JSON.stringify({ file_path: 'a.txt', content: 'A' }) };
    const runtime = new Agent(agent, {
      provider: scriptedProvider([
        { toolCalls: [write] },
        { toolCalls: [{ id: 'c2', name: 'finish', arguments: '{"message":"ok"}' }] },
      ]),
      tools: [createWriteFileTool(), createFinishTool()],
      workspace: box.workspace,
      stateDir: box.stateDir,
    });
    const session = new RunSession(agent, { policy: { kind: 'AlwaysConfirm' } });
    // A pause lands while the LLM answers: the actions are stored, then the gate sees `paused`.
    session.onAppend = (events) => {
      if (events.some((event) => event.kind === 'ActionEvent')) session.current = 'paused';
    };
    await session.run(runtime);
    session.onAppend = () => undefined;
    const statuses = () =>
      session.events.flatMap((e) =>
        e.kind === 'ConversationStateUpdateEvent' && e.key === 'execution_status' ? [e.value] : [],
      );
    expect(session.current).toBe('paused');
    expect(session.events.filter((e) => e.kind === 'ObservationEvent')).toHaveLength(0);

    // A run from paused does not accept them: it waits for confirmation.
    await session.run(runtime);
    expect(session.current).toBe('waiting_for_confirmation');
    expect(await box.read('a.txt').catch(() => 'missing')).toBe('missing');

    // A run from waiting_for_confirmation accepts them; the next response (a lone finish) needs nothing.
    await session.run(runtime);
    expect(session.current).toBe('finished');
    expect(await box.read('a.txt')).toBe('A');
    expect(statuses()).toEqual(['running', 'running', 'waiting_for_confirmation', 'running', 'finished']);
    await runtime.close();
  });

  it('new actions of an accepted run still go through the gate', async () => {
    const box = await sandbox();
    const agent = parse(AgentSpec, { llm: { model: 'fake' } });
    const writeCall = (id: string, file: string) => ({
      id,
      name: 'write_file',
      arguments: JSON.stringify({ file_path: file, content: file }),
    });
    const runtime = new Agent(agent, {
      provider: scriptedProvider([{ toolCalls: [writeCall('c1', 'one')] }, { toolCalls: [writeCall('c2', 'two')] }]),
      tools: [createWriteFileTool()],
      workspace: box.workspace,
      stateDir: box.stateDir,
    });
    const session = new RunSession(agent, { policy: { kind: 'AlwaysConfirm' } });
    await session.run(runtime);
    expect(session.current).toBe('waiting_for_confirmation');
    await session.run(runtime); // accept: `one` is written, the LLM asks for `two`, which waits
    expect(session.current).toBe('waiting_for_confirmation');
    expect(await box.read('one')).toBe('one');
    expect(await box.read('two').catch(() => 'missing')).toBe('missing');
    await runtime.close();
  });
});
