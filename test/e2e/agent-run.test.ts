import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type ActionEventBody,
  type EventBody,
  FINISHING,
  OPENING,
  type ObservationEventBody,
  actionsOf,
  observationsOf,
  ofKind,
  outline,
  recordedRequests,
  startStack,
  textOf,
} from './support.ts';
import { finish, terminal } from './turns.ts';

interface ChatMessage {
  role: string;
  content: string | null;
  tool_call_id?: string;
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
}
type ChatBody = { model: string; messages: ChatMessage[]; tools: { function: { name: string } }[] };

describe('an agent run through the HTTP API', () => {
  it('creates a file, runs a command, edits the file and finishes, sending every result back to the LLM', async () => {
    const createArgs = (file: string) => ({
      command: 'create',
      path: file,
      file_text: 'hello world\n',
      summary: 'Create the notes file',
    });
    const { server, llm } = await startStack((s) => {
      const file = join(s.workspace, 'notes.txt');
      return {
        turns: [
          { content: 'I will create the file.', tool_calls: [{ name: 'file_editor', arguments: createArgs(file) }] },
          terminal('cat notes.txt && echo ok'),
          {
            tool_calls: [
              {
                name: 'file_editor',
                arguments: { command: 'str_replace', path: file, old_str: 'world', new_str: 'bosun' },
              },
            ],
          },
          finish('The notes now say hello bosun.'),
        ],
      };
    });
    const file = join(server.workspace, 'notes.txt');
    const created = await server.startConversation(llm, { message: 'Write the notes, show them, then fix them.' });
    expect(created.execution_status).toBe('running');
    await server.waitForStatus(created.id, 'finished');

    const events = await server.allEvents(created.id);
    expect(outline(events)).toEqual([
      ...OPENING,
      'state:stats',
      'ActionEvent:file_editor',
      'ObservationEvent:FileEditorObservation',
      'state:stats',
      'ActionEvent:terminal',
      'ObservationEvent:TerminalObservation',
      'state:stats',
      'ActionEvent:file_editor',
      'ObservationEvent:FileEditorObservation',
      'state:stats',
      ...FINISHING,
    ]);
    // Ids are unique, timestamps never go back.
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    const times = events.map((e) => e.timestamp);
    expect([...times].sort()).toEqual(times);

    const [systemPrompt, userMessage] = events as [EventBody, EventBody];
    expect(systemPrompt).toMatchObject({ source: 'agent', system_prompt: { type: 'text' } });
    const tools = systemPrompt.tools as { kind: string; title: string; action_type: string }[];
    expect(tools.map((t) => [t.kind, t.title, t.action_type])).toEqual([
      ['TerminalTool', 'terminal', 'TerminalAction'],
      ['FileEditorTool', 'file_editor', 'FileEditorAction'],
      ['FinishTool', 'finish', 'FinishAction'],
      ['ThinkTool', 'think', 'ThinkAction'],
    ]);
    expect(userMessage).toMatchObject({
      source: 'user',
      llm_message: { role: 'user', content: [{ type: 'text', text: 'Write the notes, show them, then fix them.' }] },
    });

    const actions = actionsOf(events);
    const observations = observationsOf(events);
    const stats = events.filter((e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'stats');
    expect(actions).toHaveLength(4);
    expect(observations).toHaveLength(4);

    // Each action: as the LLM sent it, and answered by the observation right after it.
    const [create, cat, edit, finishing] = actions as [
      ActionEventBody,
      ActionEventBody,
      ActionEventBody,
      ActionEventBody,
    ];
    expect(create).toMatchObject({
      source: 'agent',
      thought: [{ type: 'text', text: 'I will create the file.' }],
      tool_name: 'file_editor',
      action: { kind: 'FileEditorAction', command: 'create', path: file, file_text: 'hello world\n' },
      summary: 'Create the notes file',
      security_risk: 'UNKNOWN',
    });
    expect(create.action).not.toHaveProperty('summary');
    expect(create.tool_call).toEqual({
      id: create.tool_call_id,
      name: 'file_editor',
      arguments: JSON.stringify(createArgs(file)),
      origin: 'completion',
    });
    expect(cat).toMatchObject({
      thought: [],
      tool_name: 'terminal',
      action: { kind: 'TerminalAction', command: 'cat notes.txt && echo ok', is_input: false },
      tool_call: { name: 'terminal', arguments: JSON.stringify({ command: 'cat notes.txt && echo ok' }) },
      summary: null,
    });
    expect(edit).toMatchObject({
      tool_name: 'file_editor',
      action: { kind: 'FileEditorAction', command: 'str_replace', path: file, old_str: 'world', new_str: 'bosun' },
    });
    expect(finishing).toMatchObject({
      tool_name: 'finish',
      action: { kind: 'FinishAction', message: 'The notes now say hello bosun.' },
    });
    for (const [i, action] of actions.entries()) {
      expect(action.llm_response_id).toMatch(/^chatcmpl-/);
      const observation = observations[i] as ObservationEventBody;
      expect(events.indexOf(observation)).toBe(events.indexOf(action) + 1);
      expect(observation).toMatchObject({
        source: 'environment',
        tool_name: action.tool_name,
        tool_call_id: action.tool_call_id,
        action_id: action.id,
      });
      // The stats update before each action is the usage of the response that asked for it.
      const usage = stats[i]?.value as { usage_to_metrics: Record<string, Record<string, Record<string, unknown>>> };
      expect(events.indexOf(stats[i] as EventBody)).toBe(events.indexOf(action) - 1);
      expect(usage.usage_to_metrics.default?.model_name).toBe('test-model');
      expect(usage.usage_to_metrics.default?.accumulated_token_usage?.response_id).toBe(action.llm_response_id);
    }
    expect(new Set(actions.map((a) => a.llm_response_id)).size).toBe(4);

    const [createdObs, catObs, editObs, finishObs] = observations.map((o) => o.observation);
    expect(createdObs).toMatchObject({ kind: 'FileEditorObservation', command: 'create', path: file, is_error: false });
    expect(catObs).toMatchObject({ kind: 'TerminalObservation', exit_code: 0, is_error: false });
    expect(textOf(catObs?.content)).toContain('hello world\nok');
    expect(editObs).toMatchObject({ kind: 'FileEditorObservation', command: 'str_replace', is_error: false });
    expect(finishObs).toEqual({
      kind: 'FinishObservation',
      content: [{ type: 'text', text: 'The notes now say hello bosun.', cache_prompt: false }],
      is_error: false,
    });

    expect(await readFile(file, 'utf8')).toBe('hello bosun\n');

    // The LLM got each tool result back, under the id of its call.
    const requests = await recordedRequests(llm);
    expect(requests.map((r) => [r.method, r.path, r.api, r.turn_index])).toEqual([
      ['POST', '/v1/chat/completions', 'chat_completions', 0],
      ['POST', '/v1/chat/completions', 'chat_completions', 1],
      ['POST', '/v1/chat/completions', 'chat_completions', 2],
      ['POST', '/v1/chat/completions', 'chat_completions', 3],
    ]);
    expect(requests[0]?.headers.authorization).toBe('[REDACTED]');
    const first = requests[0]?.body as ChatBody;
    expect(first.model).toBe('test-model');
    expect(first.tools.map((t) => t.function.name)).toEqual(['terminal', 'file_editor', 'finish', 'think']);
    expect(first.messages.map((m) => m.role)).toEqual(['system', 'user']);
    const last = (requests[3]?.body as ChatBody).messages;
    expect(last.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'tool',
    ]);
    for (const [i, action] of actions.slice(0, 3).entries()) {
      const call = last[2 + 2 * i] as ChatMessage;
      const result = last[3 + 2 * i] as ChatMessage;
      expect(call.tool_calls).toEqual([
        {
          id: action.tool_call_id,
          type: 'function',
          function: { name: action.tool_name, arguments: action.tool_call.arguments },
        },
      ]);
      expect(result).toEqual({
        role: 'tool',
        tool_call_id: action.tool_call_id,
        content: textOf(observations[i]?.observation.content),
      });
    }
    expect(last[2]?.content).toBe('I will create the file.');
    // Each request extends the previous one: the history the LLM sees only grows.
    for (let i = 1; i < requests.length; i++) {
      const previous = (requests[i - 1]?.body as ChatBody).messages;
      expect((requests[i]?.body as ChatBody).messages.slice(0, previous.length)).toEqual(previous);
    }
  });

  it('runs parallel tool calls of one response in call order, the thought on the first action only', async () => {
    const { server, llm } = await startStack((s) => ({
      turns: [
        {
          content: 'Two things at once.',
          tool_calls: [
            { name: 'terminal', arguments: { command: 'echo first-call' } },
            {
              name: 'file_editor',
              arguments: { command: 'create', path: join(s.workspace, 'second.txt'), file_text: 'second\n' },
            },
          ],
        },
        finish('Both done.'),
      ],
    }));
    const created = await server.startConversation(llm, { message: 'Do two things.' });
    const events = await server.settledEvents(created.id);
    expect(outline(events)).toEqual([
      ...OPENING,
      'ActionEvent:terminal',
      'ActionEvent:file_editor',
      'ObservationEvent:TerminalObservation',
      'ObservationEvent:FileEditorObservation',
      ...FINISHING,
    ]);
    const [terminal, editor] = actionsOf(events) as [ActionEventBody, ActionEventBody];
    const [terminalObs, editorObs] = observationsOf(events) as [ObservationEventBody, ObservationEventBody];
    expect(terminal.llm_response_id).toBe(editor.llm_response_id);
    expect(terminal.thought).toEqual([{ type: 'text', text: 'Two things at once.', cache_prompt: false }]);
    expect(editor.thought).toEqual([]);
    expect(terminal.tool_call_id).not.toBe(editor.tool_call_id);
    expect(terminalObs).toMatchObject({ action_id: terminal.id, tool_call_id: terminal.tool_call_id });
    expect(editorObs).toMatchObject({ action_id: editor.id, tool_call_id: editor.tool_call_id });
    expect(textOf(terminalObs.observation.content)).toContain('first-call');
    expect(await readFile(join(server.workspace, 'second.txt'), 'utf8')).toBe('second\n');

    // The next request holds both calls in one assistant message, then both results in call order.
    const second = (await recordedRequests(llm))[1]?.body as ChatBody;
    const tail = second.messages.slice(2);
    expect(tail.map((m) => m.role)).toEqual(['assistant', 'tool', 'tool']);
    expect(tail[0]?.content).toBe('Two things at once.');
    expect(tail[0]?.tool_calls?.map((c) => c.id)).toEqual([terminal.tool_call_id, editor.tool_call_id]);
    expect(tail.slice(1).map((m) => m.tool_call_id)).toEqual([terminal.tool_call_id, editor.tool_call_id]);
  });

  it('ends the run with an agent message when the LLM answers in plain text', async () => {
    const { server, llm } = await startStack({ turns: [{ content: 'The answer is 42.' }] });
    const created = await server.startConversation(llm, { message: 'What is the answer?' });
    await server.waitForStatus(created.id, 'finished');
    const events = await server.allEvents(created.id);
    expect(outline(events)).toEqual([...OPENING, 'state:stats', 'MessageEvent:agent', 'status:finished']);
    const answer = events[4] as EventBody;
    expect(answer).toMatchObject({
      source: 'agent',
      llm_message: { role: 'assistant', content: [{ type: 'text', text: 'The answer is 42.' }] },
    });
    expect(answer.llm_response_id).toMatch(/^chatcmpl-/);
    const usage = events[3]?.value as { usage_to_metrics: { default: { accumulated_token_usage: object } } };
    expect(usage.usage_to_metrics.default.accumulated_token_usage).toMatchObject({
      response_id: answer.llm_response_id,
    });
    expect(await recordedRequests(llm)).toHaveLength(1);
  });

  it('reports a file_editor path outside the workspace as an error observation and goes on', async () => {
    const { server, llm } = await startStack((s) => ({
      turns: [
        {
          tool_calls: [
            {
              name: 'file_editor',
              arguments: { command: 'create', path: join(s.outside, 'escape.txt'), file_text: 'nope\n' },
            },
          ],
        },
        { ...finish('Could not write there.'), when: { last_tool_result_contains: 'outside the workspace' } },
      ],
    }));
    const created = await server.startConversation(llm, { message: 'Write outside.' });
    const events = await server.settledEvents(created.id);
    expect(outline(events)).toEqual([
      ...OPENING,
      'ActionEvent:file_editor',
      'ObservationEvent:FileEditorObservation',
      ...FINISHING,
    ]);
    const [observation] = observationsOf(events);
    expect(observation?.observation.is_error).toBe(true);
    expect(textOf(observation?.observation.content)).toContain('outside the workspace');
    expect(ofKind(events, 'AgentErrorEvent')).toEqual([]);
    expect(existsSync(join(server.outside, 'escape.txt'))).toBe(false);
    // The LLM read the error, flagged as one.
    const second = (await recordedRequests(llm))[1]?.body as ChatBody;
    expect(second.messages.at(-1)?.content).toMatch(
      /^\[An error occurred during execution\.\]\n.*outside the workspace/,
    );
  });

  it('runs again on each message sent with run: true, with the whole history', async () => {
    const { server, llm } = await startStack({
      turns: [
        { when: { last_user_message_contains: 'first' }, content: 'First answer.' },
        { ...finish('Second answer.'), when: { last_user_message_contains: 'second' } },
      ],
    });
    const created = await server.startConversation(llm);
    expect(created.execution_status).toBe('idle');
    expect(outline(await server.allEvents(created.id))).toEqual(['SystemPromptEvent']);

    await server.sendMessage(created.id, 'the first question');
    await server.waitForStatus(created.id, 'finished');
    await server.sendMessage(created.id, 'the second question');
    const events = await server.settledEvents(created.id);
    expect(outline(events)).toEqual([
      ...OPENING,
      'MessageEvent:agent',
      'status:finished',
      'MessageEvent:user',
      'status:idle',
      'status:running',
      ...FINISHING,
    ]);
    const requests = await recordedRequests(llm);
    expect(requests.map((r) => r.turn_index)).toEqual([0, 1]);
    expect((requests[1]?.body as ChatBody).messages.map((m) => [m.role, m.content])).toEqual([
      ['system', expect.stringContaining('You are Bosun')],
      ['user', 'the first question'],
      ['assistant', 'First answer.'],
      ['user', 'the second question'],
    ]);
  });
});
