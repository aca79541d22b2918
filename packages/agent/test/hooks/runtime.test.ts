import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  Agent,
  type LLMResponse,
  MAX_STOP_ROUNDS,
  STOP_FEEDBACK_PREFIX,
  createFinishTool,
  createWriteFileTool,
  stopRounds,
} from '@bosun/agent';
import { AgentSpec, type HookConfig, type Message, parse } from '@bosun/protocol';
import { describe, expect, it } from 'vitest';
import { RunSession } from '../support/run-session.ts';
import { scriptedProvider } from '../support/scripted-provider.ts';
import { sandbox } from '../tools/support.ts';

const execFileAsync = promisify(execFile);

async function setup(hooks: HookConfig, responses: Partial<LLMResponse>[]) {
  const box = await sandbox();
  const agent = parse(AgentSpec, { llm: { model: 'fake' } });
  const provider = scriptedProvider(responses, agent.llm);
  const runtime = new Agent(agent, {
    provider,
    tools: [createWriteFileTool(), createFinishTool()],
    workspace: box.workspace,
    stateDir: box.stateDir,
    hooks,
  });
  // The messages of each LLM request.
  const requests = () => provider.requests.map((request) => request.messages);
  const session = new RunSession(agent, { maxIterations: 30 });
  /** Sends `message` as the user and runs the loop until it stops. */
  const say = async (message: string) => {
    await session.userMessage(message);
    await session.run(runtime);
  };
  return { box, runtime, session, requests, say };
}

/** A `write_file` tool call writing the file's own name into it. */
const writeCall = (id: string, file: string) => ({
  id,
  name: 'write_file',
  arguments: JSON.stringify({ file_path: file, content: file }),
});

const text = (message: Message) => message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');

describe('hooks in the run loop', () => {
  it(`Stop: sends the agent back at most ${MAX_STOP_ROUNDS} times, with stop_hook_active from the second time`, async () => {
    const { box, session, say } = await setup(
      {
        Stop: [
          {
            hooks: [
              {
                command: `grep -o '"stop_hook_active":[a-z]*' | head -1 | cut -d: -f2 >> active.txt; echo "keep going" >&2; exit 2`,
              },
            ],
          },
        ],
      } as HookConfig,
      Array.from({ length: MAX_STOP_ROUNDS + 2 }, (_, i) => ({ content: `answer ${i}` })),
    );
    await say('work');
    expect(session.current).toBe('finished');
    const feedback = session.events.filter(
      (e) =>
        e.kind === 'MessageEvent' && e.source === 'environment' && text(e.llm_message).startsWith(STOP_FEEDBACK_PREFIX),
    );
    expect(feedback).toHaveLength(MAX_STOP_ROUNDS);
    expect(
      feedback.every((e) => e.kind === 'MessageEvent' && text(e.llm_message) === '[Stop hook feedback] keep going'),
    ).toBe(true);
    expect((await box.read('active.txt')).trim().split('\n')).toEqual([
      'false',
      ...Array.from({ length: MAX_STOP_ROUNDS }, () => 'true'),
    ]);
    // A new user message starts the count again.
    await session.userMessage('more');
    expect(stopRounds(session.events)).toBe(0);
  });

  it('Stop: a user message that arrives while the Stop hooks run is answered, not left behind', async () => {
    // The first Stop hook says it started through one FIFO, then waits on another for the test to let it end.
    const { box, runtime, session, requests } = await setup(
      {
        Stop: [{ hooks: [{ command: 'test -p started && { echo up > started; read go < go; rm started go; }; :' }] }],
      } as HookConfig,
      [{ content: 'first answer' }, { content: 'second answer' }],
    );
    await execFileAsync('mkfifo', [join(box.workspace, 'started'), join(box.workspace, 'go')]);
    await session.userMessage('first');
    const running = session.run(runtime);
    // The first answer is in and its Stop hook is running: the message arrives while it runs.
    await readFile(join(box.workspace, 'started'), 'utf8');
    await session.userMessage('second');
    await writeFile(join(box.workspace, 'go'), 'go\n');
    await running;
    expect(session.current).toBe('finished');
    expect(requests()).toHaveLength(2);
    expect(text(requests()[1]?.at(-1) as Message)).toBe('second');
  });

  it('PreToolUse blocks one action of a response (recorded as blocked); PostToolUse adds context to the other', async () => {
    const { box, session, say } = await setup(
      {
        PreToolUse: [
          {
            matcher: 'write_file',
            hooks: [{ command: `grep -q '"file_path":"secret.txt"' && { echo "no secrets" >&2; exit 2; }; exit 0` }],
          },
        ],
        PostToolUse: [
          {
            matcher: 'write_file',
            hooks: [{ command: `echo '{"hookSpecificOutput":{"additionalContext":"run the linter"}}'` }],
          },
        ],
      } as HookConfig,
      [{ toolCalls: [writeCall('c1', 'secret.txt'), writeCall('c2', 'ok.txt')] }, { content: 'done' }],
    );
    await say('write');
    expect(session.current).toBe('finished');
    const rejection = session.events.find((e) => e.kind === 'UserRejectObservation');
    expect(rejection).toMatchObject({ tool_call_id: 'c1', rejection_source: 'hook', rejection_reason: 'no secrets' });
    expect(session.blockedActions).toEqual({ [(rejection as { action_id: string }).action_id]: 'no secrets' });
    expect(await box.read('ok.txt')).toBe('ok.txt');
    await expect(box.read('secret.txt')).rejects.toThrow();
    const observation = session.events.find((e) => e.kind === 'ObservationEvent');
    expect(observation?.kind === 'ObservationEvent' && observation.observation.content.at(-1)).toMatchObject({
      type: 'text',
      text: '[PostToolUse hook context] run the linter',
    });
  });

  it('a Claude Code hook (`Write` matcher, `if` on a path) guards only the calls its rule selects', async () => {
    const { box, session, say } = await setup(
      {
        PreToolUse: [
          {
            matcher: 'Write',
            hooks: [{ command: 'echo "docs are generated" >&2; exit 2', if: 'Write(docs/**)' }],
          },
        ],
      } as HookConfig,
      [{ toolCalls: [writeCall('c1', 'docs/api.md'), writeCall('c2', 'notes.md')] }, { content: 'done' }],
    );
    await say('write');
    expect(session.current).toBe('finished');
    const rejections = session.events.filter((e) => e.kind === 'UserRejectObservation');
    expect(rejections).toEqual([
      expect.objectContaining({ tool_call_id: 'c1', rejection_reason: 'docs are generated' }),
    ]);
    expect(await box.read('notes.md')).toBe('notes.md');
    await expect(box.read('docs/api.md')).rejects.toThrow();
  });

  it('a blocked last user message ends the run finished without an LLM call, and is never shown to the LLM', async () => {
    const { runtime, session, requests, say } = await setup({}, [{ content: 'hello back' }]);
    const blocked = await session.userMessage('my password is hunter2');
    session.blocked = { [blocked.id]: 'contains a password' };
    await session.run(runtime);
    expect(session.current).toBe('finished');
    expect(requests()).toHaveLength(0);

    await say('hello');
    expect(requests()).toHaveLength(1);
    const sent = (requests()[0] ?? []).filter((m) => m.role === 'user').map(text);
    expect(sent).toEqual(['hello']);
  });

  it('SessionStart says startup on the first run and resume after; SessionEnd gets the final status', async () => {
    const { box, runtime, say } = await setup(
      {
        SessionStart: [{ hooks: [{ command: `grep -o '"source":"[a-z]*"' | head -1 | cut -d'"' -f4 >> starts.txt` }] }],
        SessionEnd: [{ hooks: [{ command: `grep -o '"reason":"[a-z]*"' | head -1 | cut -d'"' -f4 >> ends.txt` }] }],
      } as HookConfig,
      [{ content: 'one' }, { content: 'two' }],
    );
    await say('first');
    await runtime.hooks.settled();
    await say('second');
    await runtime.hooks.settled();
    expect((await box.read('starts.txt')).trim().split('\n')).toEqual(['startup', 'resume']);
    expect((await box.read('ends.txt')).trim().split('\n')).toEqual(['finished', 'finished']);
  });
});
