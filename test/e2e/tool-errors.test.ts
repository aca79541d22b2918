import { describe, expect, it } from 'vitest';
import {
  type ActionEventBody,
  type EventBody,
  FINISHING,
  OPENING,
  actionsOf,
  ofKind,
  outline,
  recordedRequests,
  startStack,
} from './support.ts';

type ChatBody = { messages: { role: string; content: string | null; tool_call_id?: string }[] };
type AgentErrorBody = EventBody & { tool_name: string; tool_call_id: string; error: string };

describe('invalid tool calls', () => {
  it('records malformed arguments, a missing field and an unknown tool as errors the LLM reads, and goes on', async () => {
    const malformed = '{"command": "echo hi", ';
    const { server, llm } = await startStack({
      turns: [
        { content: 'First try.', tool_calls: [{ id: 'call_bad_json', name: 'terminal', arguments: malformed }] },
        {
          tool_calls: [{ id: 'call_no_path', name: 'file_editor', arguments: { command: 'view', summary: 'Look' } }],
        },
        { tool_calls: [{ id: 'call_unknown', name: 'teleport', arguments: { to: 'mars' } }] },
        { tool_calls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Gave up gracefully.' } }] },
      ],
    });
    const created = await server.startConversation(llm, { message: 'Try things.' });
    const events = await server.settledEvents(created.id);
    expect(outline(events)).toEqual([
      ...OPENING,
      'ActionEvent:terminal',
      'AgentErrorEvent',
      'ActionEvent:file_editor',
      'AgentErrorEvent',
      'ActionEvent:teleport',
      'AgentErrorEvent',
      ...FINISHING,
    ]);
    expect(ofKind(events, 'ObservationEvent')).toHaveLength(1);

    const actions = actionsOf(events);
    const errors = ofKind<AgentErrorBody>(events, 'AgentErrorEvent');
    const [badJson, noPath, unknown] = actions as [ActionEventBody, ActionEventBody, ActionEventBody];
    expect(badJson).toMatchObject({
      action: null,
      tool_name: 'terminal',
      tool_call_id: 'call_bad_json',
      tool_call: { id: 'call_bad_json', name: 'terminal', arguments: malformed },
      thought: [{ type: 'text', text: 'First try.' }],
      summary: null,
    });
    expect(noPath).toMatchObject({
      action: null,
      tool_name: 'file_editor',
      tool_call: { arguments: JSON.stringify({ command: 'view', summary: 'Look' }) },
    });
    expect(unknown).toMatchObject({ action: null, tool_name: 'teleport', tool_call_id: 'call_unknown' });
    for (const [i, error] of errors.entries()) {
      const action = actions[i] as ActionEventBody;
      expect(error).toMatchObject({ source: 'agent', tool_name: action.tool_name, tool_call_id: action.tool_call_id });
    }
    const [jsonError, fieldError, toolError] = errors.map((e) => e.error) as [string, string, string];
    expect(jsonError).toMatch(/^Error validating tool 'terminal': the arguments are not valid JSON/);
    expect(jsonError).toContain(malformed);
    expect(fieldError).toMatch(/^Error validating tool 'file_editor': /);
    expect(fieldError).toContain('path');
    expect(fieldError).toContain('Parameters provided: ["command"]');
    expect(toolError).toBe(`Tool 'teleport' not found. Available: ["terminal","file_editor","finish","think"]`);

    // Each error went back to the LLM as the result of its call, in the very next request.
    const requests = (await recordedRequests(llm)).map((r) => r.body as ChatBody);
    expect(requests).toHaveLength(4);
    for (const [i, error] of errors.entries()) {
      const last = requests[i + 1]?.messages.at(-1);
      expect(last).toEqual({ role: 'tool', tool_call_id: error.tool_call_id, content: error.error });
    }
  });
});
