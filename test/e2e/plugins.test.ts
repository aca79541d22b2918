import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLlmReplay } from '@bosun/llm-replay';
import { describe, expect, it, onTestFinished } from 'vitest';
import { TestRepository } from '../../packages/sources/test/git/support.ts';
import {
  type EventBody,
  FINISHING,
  actionsOf,
  hookRejection,
  observationsOf,
  ofKind,
  outline,
  recordedRequests,
  restartableServer,
  textOf,
} from './support.ts';
import { finish, terminal } from './turns.ts';

/** The dependency-free stdio MCP server the test plugin ships (`${CLAUDE_PLUGIN_ROOT}/server.mjs`). */
const MCP_SERVER = fileURLToPath(new URL('../fixtures/plugins/mcp-server.mjs', import.meta.url));

/** A plugin with one skill, one command, a hook that closes the terminal, and an MCP server of its own. */
async function glossaryPlugin(): Promise<Record<string, string>> {
  return {
    '.claude-plugin/plugin.json': JSON.stringify({ name: 'glossary-kit', version: '1.0.0', description: 'Words' }),
    'skills/glossary/SKILL.md':
      '---\nname: glossary\ndescription: How to define nautical words with the glossary tool.\n---\n' +
      'GLOSSARY-SKILL-BODY: call `lookup` with the word; never guess a meaning.\n',
    'commands/define.md': '---\ndescription: Define a word\n---\nDEFINE-COMMAND-BODY: define $ARGUMENTS.\n',
    'hooks/hooks.json': JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: 'terminal', hooks: [{ type: 'command', command: 'sh "${CLAUDE_PLUGIN_ROOT}/hooks/closed.sh"' }] },
        ],
      },
    }),
    'hooks/closed.sh': 'echo "glossary-kit: the terminal is closed" >&2\nexit 2\n',
    '.mcp.json': JSON.stringify({
      mcpServers: { glossary: { command: process.execPath, args: ['${CLAUDE_PLUGIN_ROOT}/server.mjs'] } },
    }),
    'server.mjs': await readFile(MCP_SERVER, 'utf8'),
  };
}

type ChatRequest = {
  messages: { role: string; content: string | { type: string; text: string }[] | null }[];
  tools: { function: { name: string } }[];
};

describe('a plugin in a conversation', () => {
  it('the agent invokes its skill, its hook blocks a terminal call, its MCP server answers a tool call', async () => {
    const stack = await restartableServer((root) => ({ gitProviders: { github: `file://${join(root, 'remotes')}` } }));
    const root = stack.root;
    const remotes = join(root, 'remotes');
    const repo = await TestRepository.create(remotes, 'acme/glossary-kit');
    const sha = await repo.commit(await glossaryPlugin());
    const llm = await startLlmReplay({
      script: {
        turns: [
          { content: 'Loading the skill.', tool_calls: [{ name: 'invoke_skill', arguments: { name: 'glossary' } }] },
          terminal('cat /etc/hostname'),
          { tool_calls: [{ name: 'lookup', arguments: { word: 'keel' } }] },
          finish('A keel is the spine of a ship.'),
        ],
      },
    });
    onTestFinished(() => llm.close());
    await stack.start();
    const { server } = stack;

    const created = await server.startConversation(llm, {
      message: '/glossary-kit:define keel',
      tools: [{ name: 'terminal' }],
      agent: { agent_context: { load_project_skills: false } },
      extra: { plugins: [{ source: 'github:acme/glossary-kit', ref: 'main' }] },
    });
    expect(created.resolved_plugins).toEqual([
      {
        source: 'github:acme/glossary-kit',
        original_ref: 'main',
        resolved_ref: sha,
        repo_path: null,
        marketplace: null,
        name: 'glossary-kit',
        problems: [],
      },
    ]);
    const id = created.id;
    const events = await server.settledEvents(id);
    expect(outline(events)).toEqual([
      'SystemPromptEvent',
      'state:skills',
      'MessageEvent:user',
      'status:running',
      'ActionEvent:invoke_skill',
      'ObservationEvent:MCPToolObservation',
      'ActionEvent:terminal',
      'UserRejectObservation',
      'ActionEvent:lookup',
      'ObservationEvent:MCPToolObservation',
      ...FINISHING,
    ]);
    // What the conversation loaded: the plugin's skill and command, as plugin skills.
    const skills = ofKind<EventBody & { key: string; value: { skills: { name: string; scope: string }[] } }>(
      events,
      'ConversationStateUpdateEvent',
    ).find((event) => event.key === 'skills');
    expect(skills?.value.skills.map(({ name, scope }) => ({ name, scope }))).toEqual([
      { name: 'glossary-kit:glossary', scope: 'plugin' },
      { name: 'glossary-kit:define', scope: 'plugin' },
    ]);
    // The command is a skill the user triggers with /glossary-kit:define.
    const message = ofKind<EventBody & { activated_skills: string[]; extended_content: unknown }>(
      events,
      'MessageEvent',
    )[0];
    expect(message?.activated_skills).toEqual(['glossary-kit:define']);
    expect(textOf(message?.extended_content)).toContain('DEFINE-COMMAND-BODY: define $ARGUMENTS.');

    const observations = observationsOf(events);
    expect(textOf(observations[0]?.observation.content)).toContain('GLOSSARY-SKILL-BODY');
    const actions = actionsOf(events);
    expect(ofKind(events, 'UserRejectObservation')).toEqual([
      hookRejection(actions[1], 'glossary-kit: the terminal is closed'),
    ]);
    expect(observations[1]?.observation).toMatchObject({
      kind: 'MCPToolObservation',
      tool_name: 'lookup',
      is_error: false,
    });
    expect(textOf(observations[1]?.observation.content)).toBe(
      `glossary: keel = the spine of a ship (from ${join(root, 'data', 'git', 'commits', sha)})`,
    );

    // The LLM saw the skill in the catalog, the MCP tool among its tools, and the command's instructions.
    const [first] = (await recordedRequests(llm)).map((request) => request.body as ChatRequest);
    const system = first?.messages[0];
    // Named by its plugin in the catalog; `invoke_skill` found it by its short name above (no other skill has it).
    expect(JSON.stringify(system?.content)).toContain('<name>glossary-kit:glossary</name>');
    expect(first?.tools.map((tool) => tool.function.name)).toEqual(
      expect.arrayContaining(['terminal', 'invoke_skill', 'lookup']),
    );
    const user = first?.messages.find((m) => m.role === 'user');
    expect(typeof user?.content === 'string' ? user.content : textOf(user?.content)).toContain('DEFINE-COMMAND-BODY');
  });
});
