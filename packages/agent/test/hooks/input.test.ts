import { hookInput } from '@bosun/agent';
import { describe, expect, it } from 'vitest';

const context = { sessionId: 'c0ffee00-0000-4000-8000-000000000000', workspace: '/work/space' };

describe('the JSON a hook reads on stdin', () => {
  it('PreToolUse: Claude Code and OpenHands names side by side', () => {
    const input = hookInput('PreToolUse', context, {
      toolName: 'terminal',
      toolInput: { kind: 'TerminalAction', command: 'ls' },
      toolUseId: 'call_1',
    });
    expect(input).toEqual({
      session_id: context.sessionId,
      transcript_path: null,
      cwd: '/work/space',
      hook_event_name: 'PreToolUse',
      tool_use_id: 'call_1',
      tool_name: 'terminal',
      tool_input: { kind: 'TerminalAction', command: 'ls' },
      tool_response: null,
      event_type: 'PreToolUse',
      message: null,
      working_dir: '/work/space',
      metadata: {},
    });
  });

  it('PostToolUse carries the observation as tool_response', () => {
    const observation = { kind: 'TerminalObservation', content: [{ type: 'text', text: 'ok' }], is_error: false };
    const input = hookInput('PostToolUse', context, {
      toolName: 'terminal',
      toolInput: { kind: 'TerminalAction', command: 'ls' },
      toolUseId: 'call_1',
      toolResponse: observation,
    });
    expect(input).toMatchObject({ hook_event_name: 'PostToolUse', event_type: 'PostToolUse' });
    expect(input.tool_response).toEqual(observation);
  });

  it('UserPromptSubmit: the text is `prompt` (Claude Code) and `message` (OpenHands)', () => {
    const input = hookInput('UserPromptSubmit', context, { prompt: 'Deploy it' });
    expect(input).toMatchObject({ prompt: 'Deploy it', message: 'Deploy it', tool_name: null, tool_input: null });
    expect(input).not.toHaveProperty('tool_use_id');
  });

  it('Stop, SessionStart and SessionEnd carry their own fields (also in metadata)', () => {
    expect(hookInput('Stop', context, { stopHookActive: true, lastAssistantMessage: 'Done.' })).toMatchObject({
      hook_event_name: 'Stop',
      stop_hook_active: true,
      last_assistant_message: 'Done.',
      metadata: { stop_hook_active: true },
    });
    expect(hookInput('Stop', context)).toMatchObject({ stop_hook_active: false, last_assistant_message: null });
    expect(hookInput('SessionStart', context, { source: 'resume' })).toMatchObject({
      source: 'resume',
      metadata: { source: 'resume' },
    });
    expect(hookInput('SessionEnd', context, { reason: 'finished' })).toMatchObject({
      reason: 'finished',
      metadata: { reason: 'finished' },
    });
  });
});
