import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Script } from '@bosun/llm-replay';
import { describe, expect, it } from 'vitest';
import {
  type ActionEventBody,
  type EventBody,
  FINISHING,
  OPENING,
  actionsOf,
  hookRejection,
  observationsOf,
  ofKind,
  outline,
  recordedRequests,
  startLoggedStack,
  startStack,
  textOf,
  withoutStats,
} from './support.ts';
import { finish, terminal, terminalCall } from './turns.ts';

interface ChatBody {
  messages: { role: string; content: string | { type: string; text?: string }[] | null; tool_call_id?: string }[];
}

const command = (text: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command: text, ...extra });
/** The text of a Chat Completions message's content (a string or parts). */
const contentText = (content: ChatBody['messages'][number]['content']) =>
  typeof content === 'string' ? content : content ? textOf(content) : '';

async function chatRequests(llm: Parameters<typeof recordedRequests>[0]): Promise<ChatBody[]> {
  return (await recordedRequests(llm)).map((request) => request.body as ChatBody);
}

const loggedStack = (script: Script) => startLoggedStack(script, 'info');

describe('hooks', () => {
  it('PreToolUse blocks by exit code 2 and by JSON: UserRejectObservation (hook), the other action runs, the LLM reads the rejections', async () => {
    const { server, llm } = await startStack({
      turns: [
        {
          content: 'Three things.',
          tool_calls: [
            terminalCall('rm -rf build'),
            terminalCall('curl https://example.com'),
            terminalCall('echo ok > ok.txt'),
          ],
        },
        finish('Done what was allowed.'),
      ],
    });
    // Claude Code's shape: the first hook blocks `rm` with exit code 2, the second `curl` with JSON.
    const hookConfig = {
      PreToolUse: [
        {
          matcher: 'terminal',
          hooks: [
            command(`case "$(cat)" in *'"command":"rm '*) echo "rm is not allowed here" >&2; exit 2;; esac`, {
              timeout: 30,
            }),
          ],
        },
        {
          matcher: 'terminal|file_editor',
          hooks: [
            command(
              `if grep -q '"command":"curl'; then echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"No network access."}}'; fi`,
            ),
          ],
        },
      ],
    };
    const created = await server.startConversation(llm, {
      message: 'Clean, fetch, write.',
      extra: { hook_config: hookConfig },
    });
    expect(created.hook_config).toEqual({
      PreToolUse: [
        { matcher: 'terminal', hooks: [{ ...hookConfig.PreToolUse[0]?.hooks[0] }] },
        { matcher: 'terminal|file_editor', hooks: [{ ...hookConfig.PreToolUse[1]?.hooks[0] }] },
      ],
    });
    const info = await server.waitForStatus(created.id, 'finished');
    const events = withoutStats(await server.allEvents(created.id));
    expect(outline(events)).toEqual([
      ...OPENING,
      'ActionEvent:terminal',
      'ActionEvent:terminal',
      'ActionEvent:terminal',
      'UserRejectObservation',
      'UserRejectObservation',
      'ObservationEvent:TerminalObservation',
      ...FINISHING,
    ]);
    const actions = actionsOf(events);
    const rejections = ofKind(events, 'UserRejectObservation');
    expect(rejections).toEqual([
      expect.objectContaining({
        source: 'environment',
        tool_name: 'terminal',
        action_id: actions[0]?.id,
        tool_call_id: actions[0]?.tool_call_id,
        rejection_source: 'hook',
        rejection_reason: 'rm is not allowed here',
      }),
      hookRejection(actions[1], 'No network access.'),
    ]);
    expect(info.blocked_actions).toEqual({
      [actions[0]?.id as string]: 'rm is not allowed here',
      [actions[1]?.id as string]: 'No network access.',
    });
    expect(existsSync(join(server.workspace, 'ok.txt'))).toBe(true);

    const second = (await chatRequests(llm))[1] as ChatBody;
    const results = second.messages.filter((m) => m.role === 'tool');
    expect(results.map((m) => [m.tool_call_id, contentText(m.content)])).toEqual([
      [actions[0]?.tool_call_id, 'Action rejected: rm is not allowed here'],
      [actions[1]?.tool_call_id, 'Action rejected: No network access.'],
      [actions[2]?.tool_call_id, expect.not.stringContaining('Action rejected')],
    ]);
  });

  it('UserPromptSubmit blocks a message: stored, in blocked_messages, never sent to the LLM; the run ends finished', async () => {
    const { server, llm } = await startStack({
      turns: [{ content: 'Hello! How can I help?', when: { last_user_message_contains: 'Hello' } }],
    });
    // OpenHands' snake_case shape: JSON decision for the block, plain context otherwise.
    const hookConfig = {
      user_prompt_submit: [
        {
          hooks: [
            command(
              `if grep -qi 'password'; then echo '{"decision":"block","reason":"Do not share passwords."}'; else echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"The user is on the night shift."}}'; fi`,
            ),
          ],
        },
      ],
    };
    const created = await server.startConversation(llm, {
      message: 'My password is hunter2, use it.',
      extra: { hook_config: hookConfig },
    });
    let info = await server.waitForStatus(created.id, 'finished');
    let events = withoutStats(await server.allEvents(created.id));
    expect(outline(events)).toEqual([...OPENING, 'status:finished']);
    const blocked = events[1] as EventBody;
    expect(textOf((blocked.llm_message as { content: unknown }).content)).toBe('My password is hunter2, use it.');
    expect(blocked.extended_content).toEqual([]);
    expect(info.blocked_messages).toEqual({ [blocked.id]: 'Do not share passwords.' });
    expect(info.last_user_message_id).toBe(blocked.id);
    expect(await recordedRequests(llm)).toHaveLength(0);

    // The next message is not blocked: its context goes in `extended_content`, and the LLM never sees the first.
    await server.sendMessage(created.id, 'Hello there.');
    info = await server.waitForStatus(created.id, 'finished');
    events = withoutStats(await server.allEvents(created.id));
    const hello = events.filter((e) => e.kind === 'MessageEvent' && e.source === 'user')[1] as EventBody;
    expect(hello.extended_content).toEqual([
      { type: 'text', text: 'The user is on the night shift.', cache_prompt: false },
    ]);
    expect(info.blocked_messages).toEqual({ [blocked.id]: 'Do not share passwords.' });
    const requests = await chatRequests(llm);
    expect(requests).toHaveLength(1);
    const users = (requests[0] as ChatBody).messages
      .filter((m) => m.role === 'user')
      .map((m) => contentText(m.content));
    expect(users).toHaveLength(1);
    expect(users[0]).toContain('Hello there.');
    expect(users[0]).toContain('The user is on the night shift.');
    expect(JSON.stringify(requests)).not.toContain('hunter2');
  });

  it('Stop sends the agent back to work once (a marker file lets it stop the second time); the LLM reads the feedback', async () => {
    const { server, llm } = await startStack({
      turns: [
        finish('All done.'),
        {
          tool_calls: [terminalCall('echo tested > tests.txt')],
          when: { last_user_message_contains: '[Stop hook feedback]' },
        },
        finish('Tests pass; done.'),
      ],
    });
    const hookConfig = {
      Stop: [
        {
          hooks: [
            command(
              `cat >> stop-inputs.jsonl; echo >> stop-inputs.jsonl; if [ -f stop-once ]; then exit 0; fi; touch stop-once; echo '{"decision":"block","reason":"Run the tests before finishing."}'`,
            ),
          ],
        },
      ],
    };
    const created = await server.startConversation(llm, { message: 'Fix it.', extra: { hook_config: hookConfig } });
    const events = await server.settledEvents(created.id);
    expect(outline(events)).toEqual([
      ...OPENING,
      'ActionEvent:finish',
      'ObservationEvent:FinishObservation',
      'MessageEvent:environment',
      'ActionEvent:terminal',
      'ObservationEvent:TerminalObservation',
      ...FINISHING,
    ]);
    const feedback = events[5] as EventBody;
    expect(feedback.llm_message).toEqual({
      role: 'user',
      content: [{ type: 'text', text: '[Stop hook feedback] Run the tests before finishing.', cache_prompt: false }],
      thinking_blocks: [],
    });
    expect(existsSync(join(server.workspace, 'tests.txt'))).toBe(true);

    const requests = await chatRequests(llm);
    expect(requests).toHaveLength(3);
    const last = (requests[1] as ChatBody).messages.at(-1);
    expect([last?.role, contentText(last?.content ?? null)]).toEqual([
      'user',
      '[Stop hook feedback] Run the tests before finishing.',
    ]);
    const inputs = (await readFile(join(server.workspace, 'stop-inputs.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(inputs.map((input) => [input.hook_event_name, input.event_type, input.stop_hook_active])).toEqual([
      ['Stop', 'Stop', false],
      ['Stop', 'Stop', true],
    ]);
    expect(inputs.map((input) => input.last_assistant_message)).toEqual(['All done.', 'Tests pass; done.']);
  });

  it('PostToolUse gets the action and its observation under both vocabularies; its context reaches the LLM with the result', async () => {
    const { server, llm } = await startStack({
      turns: [terminal('echo hi'), finish('Said hi.')],
    });
    const hookConfig = {
      post_tool_use: [
        { matcher: 'terminal', hooks: [command('cat > post-input.json')] },
        {
          matcher: '*',
          hooks: [
            command(
              `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"Remember to log this."}}'`,
            ),
          ],
        },
      ],
    };
    const created = await server.startConversation(llm, { message: 'Say hi.', extra: { hook_config: hookConfig } });
    await server.waitForStatus(created.id, 'finished');

    const events = await server.allEvents(created.id);
    const action = actionsOf(events)[0] as ActionEventBody;
    const input = JSON.parse(await readFile(join(server.workspace, 'post-input.json'), 'utf8'));
    // Claude Code's names.
    expect(input).toMatchObject({
      session_id: created.id,
      transcript_path: null,
      cwd: server.workspace,
      hook_event_name: 'PostToolUse',
      tool_name: 'terminal',
      tool_use_id: action.tool_call_id,
      tool_input: { kind: 'TerminalAction', command: 'echo hi' },
      tool_response: { kind: 'TerminalObservation', is_error: false },
    });
    // OpenHands' names.
    expect(input).toMatchObject({
      event_type: 'PostToolUse',
      working_dir: server.workspace,
      message: null,
      metadata: {},
    });
    expect(textOf(input.tool_response.content)).toContain('hi');

    const observations = observationsOf(events);
    expect(observations[0]?.observation.content.at(-1)).toEqual({
      type: 'text',
      text: '[PostToolUse hook context] Remember to log this.',
      cache_prompt: false,
    });
    // Every tool matches `*`, finish included.
    expect(observations[1]?.observation.content.at(-1)?.text).toBe('[PostToolUse hook context] Remember to log this.');
    const second = (await chatRequests(llm))[1] as ChatBody;
    const result = second.messages.find((m) => m.role === 'tool');
    expect(contentText(result?.content ?? null)).toMatch(
      /hi[\s\S]*\[PostToolUse hook context\] Remember to log this\.$/,
    );
  });

  it('hooks that time out, fail or print bad JSON never block; the server log shows each run', async () => {
    const { server, llm, logs } = await loggedStack({
      turns: [terminal('echo ran > ran.txt'), finish('Ran it.')],
    });
    const hookConfig = {
      PreToolUse: [
        {
          matcher: '*',
          hooks: [
            command('sleep 30; exit 2', { timeout: 0.5 }),
            command('echo "broken hook" >&2; exit 1'),
            command(`echo '{"decision": "block"'`),
          ],
        },
      ],
      Stop: [{ hooks: [command('exit 7')] }],
      SessionStart: [{ hooks: [command('no-such-hook-binary')] }],
    };
    const started = Date.now();
    const created = await server.startConversation(llm, { message: 'Run it.', extra: { hook_config: hookConfig } });
    await server.waitForStatus(created.id, 'finished');
    expect(existsSync(join(server.workspace, 'ran.txt'))).toBe(true);
    // Each hook run is in the server log (no event kind for it); failures are warnings.
    const runs = logs
      .map((line) => JSON.parse(line))
      .filter((line) => line.msg === 'hook ran' && line.conversation_id === created.id);
    expect(
      runs.filter((line) => line.hook.event === 'PreToolUse').map((line) => [line.level, line.hook.error]),
    ).toEqual([
      [40, 'timed out after 0.5 s'],
      [40, 'exit code 1: broken hook'],
      [40, expect.stringMatching(/^invalid JSON on stdout/)],
      [40, 'timed out after 0.5 s'],
      [40, 'exit code 1: broken hook'],
      [40, expect.stringMatching(/^invalid JSON on stdout/)],
    ]);
    expect(runs.map((line) => line.hook.event)).toEqual(expect.arrayContaining(['SessionStart', 'Stop']));
    const events = await server.allEvents(created.id);
    expect(ofKind(events, 'UserRejectObservation')).toEqual([]);
    expect(ofKind(events, 'ObservationEvent')).toHaveLength(2);
    // Two actions, each waited for the timed-out hook once: well under its 30 s sleep.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect((await server.conversation(created.id)).blocked_actions).toEqual({});
  });

  it('rejects unknown hook events, invalid matchers and unreadable `if` rules with 422', async () => {
    const { server, llm } = await startStack({ turns: [] });
    const start = (hookConfig: unknown) =>
      server.api<{ detail: { loc: unknown[]; type: string; msg: string }[] }>('POST', '/api/conversations', {
        agent: { llm: { model: 'test-model', base_url: llm.baseUrl, api_key: 'k' } },
        workspace: { working_dir: server.workspace },
        hook_config: hookConfig,
      });
    const unknown = await start({ PreToolUse: [], Notification: [{ hooks: [command('true')] }] });
    expect(unknown.status, unknown.text).toBe(422);
    expect(unknown.body.detail.map((d) => [d.loc, d.type])).toEqual([
      [['body', 'hook_config', 'Notification'], 'extra_forbidden'],
    ]);
    const regex = await start({ pre_tool_use: [{ matcher: 'file_(', hooks: [command('true')] }] });
    expect(regex.status, regex.text).toBe(422);
    expect(regex.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'hook_config', 'pre_tool_use', 0, 'matcher'], type: 'value_error' }),
    ]);
    const prompt = await start({ Stop: [{ hooks: [{ type: 'prompt', prompt: 'Is it done?' }] }] });
    expect(prompt.status, prompt.text).toBe(422);
    const rules = await start({
      PreToolUse: [{ matcher: 'Bash', hooks: [{ ...command('true'), if: 'Bash(git commit' }] }],
      Stop: [{ hooks: [{ ...command('true'), if: 'Bash(git commit:*)' }] }],
    });
    expect(rules.status, rules.text).toBe(422);
    expect(rules.body.detail.map((d) => [d.loc, d.type])).toEqual([
      [['body', 'hook_config', 'PreToolUse', 0, 'hooks', 0, 'if'], 'value_error'],
      [['body', 'hook_config', 'Stop', 0, 'hooks', 0, 'if'], 'value_error'],
    ]);
    const accepted = await start({
      PreToolUse: [{ matcher: 'Bash', hooks: [{ ...command('true'), if: 'Bash(git commit:*)' }] }],
    });
    expect(accepted.status, accepted.text).toBe(201);
  });
});
