import { appendFile } from 'node:fs/promises';
import {
  Agent,
  TOOL_NAMES,
  TOOL_RECORDS,
  type Tool,
  actionRisk,
  resolveInWorkspace,
  toolRecord,
  toolRegistry,
} from '@bosun/agent';
import {
  type ActionOf,
  AgentSpec,
  type ObservationOf,
  type SecurityAnalyzer,
  type StoredEvent,
  mcpShapes,
  parse,
} from '@bosun/protocol';
import { describe, expect, it } from 'vitest';
import { RunSession } from '../support/run-session.ts';
import { scriptedProvider } from '../support/scripted-provider.ts';
import { sandbox } from './support.ts';

/**
 * A tool added the way the agent README shows: its record (shapes, risk rule, factory) and one line in a list.
 * The spec's unions are closed, so a tool that must not change the wire takes the generic shapes of "a tool with
 * arbitrary data" (MCP's, as `invoke_skill` does); its own risk rule still rates its calls.
 */

type NoteAction = ActionOf<'MCPToolAction'>;
type NoteObservation = ObservationOf<'MCPToolObservation'>;

const DESCRIPTION = 'Appends a line to a notes file of the workspace.';
const PARAMETERS = {
  type: 'object',
  properties: { path: { type: 'string' }, text: { type: 'string' } },
  required: ['path', 'text'],
  additionalProperties: false,
};

function createAppendNoteTool(): Tool<NoteAction, NoteObservation> {
  const observation = (text: string, isError: boolean): NoteObservation => ({
    kind: 'MCPToolObservation',
    tool_name: 'append_note',
    content: [{ type: 'text', text, cache_prompt: false }],
    is_error: isError,
  });
  return {
    name: 'append_note',
    actionKind: 'MCPToolAction',
    definition: {
      kind: 'MCPToolDefinition',
      title: 'append_note',
      description: DESCRIPTION,
      action_type: 'MCPToolAction',
      observation_type: 'MCPToolObservation',
      mcp_tool: { name: 'append_note', description: DESCRIPTION, inputSchema: PARAMETERS },
    },
    parameters: PARAMETERS,
    readOnly: false,
    actionFrom: (args) => ({ ok: true, action: { kind: 'MCPToolAction', data: args } }),
    async execute(action, context) {
      const { path, text } = action.data as { path: string; text: string };
      try {
        await appendFile(resolveInWorkspace(context.workspace, path), `${text}\n`);
        return observation(`Appended to ${path}.`, false);
      } catch (error) {
        return observation((error as Error).message, true);
      }
    },
  };
}

const appendNoteRecord = toolRecord({
  name: 'append_note',
  shapes: mcpShapes,
  riskSubject: (action) => ({ kind: 'write', path: String(action.data.path) }),
  create: () => [createAppendNoteTool()],
});

// The one line: the list of records, with the new one.
const registry = toolRegistry([...TOOL_RECORDS, appendNoteRecord]);

const call = (id: string, path: string) => ({
  id,
  name: 'append_note',
  arguments: JSON.stringify({ path, text: 'remember the milk' }),
});

describe('a tool added through its record and the list', () => {
  it('is listed, checked and created by name like the built-in tools', () => {
    expect(registry.names).toEqual([...TOOL_NAMES, 'append_note']);
    expect(registry.problems([{ name: 'append_note', params: {} }], ['tools'])).toEqual([]);
    const tools = registry.createToolset([{ name: 'append_note', params: {} }]);
    expect(tools.map((tool) => tool.name)).toEqual(['append_note', 'finish', 'think']);
  });

  it('is run by the agent, each call rated by its own rule', async () => {
    const box = await sandbox();
    const agent = parse(AgentSpec, { llm: { model: 'fake' } });
    const runtime = new Agent(agent, {
      provider: scriptedProvider([
        { toolCalls: [call('c1', 'notes.md'), call('c2', '/etc/motd')] },
        { toolCalls: [{ id: 'c3', name: 'finish', arguments: '{"message":"noted"}' }] },
      ]),
      tools: registry.createToolset([{ name: 'append_note', params: {} }]),
      workspace: box.workspace,
      stateDir: box.stateDir,
    });
    const session = Object.assign(new RunSession(agent), {
      securityAnalyzer: (): SecurityAnalyzer => ({ kind: 'RuleBasedSecurityAnalyzer' }),
    });
    await session.userMessage('Note it down.');
    await session.run(runtime);
    await runtime.close();

    expect(session.current).toBe('finished');
    const actions = session.events.filter((event): event is StoredEvent<'ActionEvent'> => event.kind === 'ActionEvent');
    // A write inside the workspace is LOW, to /etc HIGH (the tool refuses it): its record's rule, where the kind
    // alone (MCPToolAction) says UNKNOWN.
    expect(actions.map((event) => [event.tool_name, event.security_risk])).toEqual([
      ['append_note', 'LOW'],
      ['append_note', 'HIGH'],
      ['finish', 'LOW'],
    ]);
    expect(actionRisk(actions[0]?.action as NoteAction, { workspace: box.workspace })).toBe('UNKNOWN');
    expect(await box.read('notes.md')).toBe('remember the milk\n');
    const observations = session.events.flatMap((event) =>
      event.kind === 'ObservationEvent' ? [event.observation.is_error] : [],
    );
    expect(observations).toEqual([false, true, false]);
  });
});

describe('the records of Bosun', () => {
  it('create tools of their own shapes only, each tool with its record rule', async () => {
    for (const record of TOOL_RECORDS) {
      const tools = record.create({}, {});
      const ids = (shapes: readonly { $id: string }[]) => shapes.map((shape) => shape.$id);
      for (const tool of tools) {
        expect(ids(record.shapes.actions), tool.name).toContain(tool.actionKind);
        expect(ids(record.shapes.definitions), tool.name).toContain(tool.definition.kind);
        expect(ids(record.shapes.observations), tool.name).toContain(tool.definition.observation_type);
      }
      await Promise.all(tools.map((tool) => tool.close?.()));
    }
    const created = registry.createToolset(TOOL_NAMES.map((name) => ({ name, params: {} })));
    expect(created.every((tool) => typeof tool.riskSubject === 'function')).toBe(true);
    await Promise.all(created.map((tool) => tool.close?.()));
  });
});
