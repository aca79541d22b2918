import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type LlmReplay, type Script, startLlmReplay } from '@bosun/llm-replay';
import { describe, expect, it, onTestFinished } from 'vitest';
import { TestRepository } from '../../packages/sources/test/git/support.ts';
import {
  type E2EServer,
  type EventBody,
  actionsOf,
  llmConfig,
  observationsOf,
  ofKind,
  recordedRequests,
  restartableServer,
  textOf,
} from './support.ts';
import { finish } from './turns.ts';

interface ChatMessage {
  role: string;
  content: string | { type: string; text?: string }[] | null;
  tool_call_id?: string;
}
interface ChatBody {
  messages: ChatMessage[];
  tools: { function: { name: string; parameters: Record<string, unknown> } }[];
}

const contentText = (content: ChatMessage['content']) =>
  typeof content === 'string' ? content : content ? textOf(content) : '';
const skillMd = (name: string, description: string, extra = '', body = `Instructions of ${name}.`) =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\n${body}\n`;

async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

/**
 * An agent server (restartable on the same data directory, logging into `logs`) whose `github:` sources are
 * bare repositories under `repos`, and a scripted LLM.
 */
async function skillStack(script: Script) {
  const logs: string[] = [];
  const llm: LlmReplay = await startLlmReplay({ script });
  onTestFinished(() => llm.close());
  const stack = await restartableServer((root) => ({
    gitProviders: { github: `file://${join(root, 'repos')}` },
    logLevel: 'info',
    logStream: { write: (line: string) => logs.push(line) },
  }));
  await stack.start();
  await mkdir(stack.server.workspace, { recursive: true });
  return { server: stack.server, llm, repos: join(stack.root, 'repos'), logs, start: stack.start, stop: stack.stop };
}

async function startWith(
  stack: { server: E2EServer; llm: LlmReplay },
  message: string | null,
  agentContext: Record<string, unknown> = {},
) {
  const created = await stack.server.startConversation(stack.llm, {
    message: message ?? undefined,
    tools: [{ name: 'terminal' }],
    agent: { agent_context: agentContext },
  });
  return created.id;
}

const skillsReport = (events: EventBody[]) =>
  events.find((e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'skills')?.value as {
    skills: { name: string; scope: string }[];
    repositories: { source: string; resolved_ref: string | null; error: string | null }[];
    diagnostics: { severity: string; message: string; file: string }[];
  };

describe('skills in a conversation', () => {
  it('the system prompt holds AGENTS.md and the catalog; invoke_skill loads a skill and the next LLM request carries it', async () => {
    const stack = await skillStack({
      turns: [
        { content: 'Loading the PDF skill.', tool_calls: [{ name: 'invoke_skill', arguments: { name: 'pdf-tools' } }] },
        { tool_calls: [{ name: 'invoke_skill', arguments: { name: 'nope' } }] },
        finish('Done.'),
      ],
    });
    const { server, llm } = stack;
    await writeTree(server.workspace, {
      'AGENTS.md': 'Always answer in French.',
      '.agents/skills/pdf-tools/SKILL.md': skillMd(
        'pdf-tools',
        'Extract text from PDF files.',
        '',
        'Run scripts/extract.py on the file.',
      ),
      '.agents/skills/pdf-tools/scripts/extract.py': 'print("text")',
    });
    const id = await startWith(stack, 'Read report.pdf.');
    await server.waitForStatus(id, 'finished');

    const requests = (await recordedRequests(llm)).map((r) => r.body as ChatBody);
    expect(requests).toHaveLength(3);
    const system = contentText(requests[0]?.messages[0]?.content ?? null);
    expect(system).toContain('Always answer in French.');
    expect(system).toContain(
      '<available_skills>\n  <skill>\n    <name>pdf-tools</name>\n    <description>Extract text from PDF files.</description>',
    );
    expect(system).not.toContain('Run scripts/extract.py');
    const invokeTool = requests[0]?.tools.find((t) => t.function.name === 'invoke_skill');
    expect(invokeTool?.function.parameters).toMatchObject({ properties: { name: { enum: ['pdf-tools'] } } });

    // The skill's content reaches the LLM as the result of its call, with the skill's files listed.
    const second = requests[1]?.messages ?? [];
    const result = second[second.length - 1] as ChatMessage;
    expect(result.role).toBe('tool');
    const skillDir = join(server.workspace, '.agents/skills/pdf-tools');
    expect(contentText(result.content)).toBe(
      `<skill_content name="pdf-tools">\nRun scripts/extract.py on the file.\n\nSkill directory: ${skillDir}\nRelative paths in this skill are relative to the skill directory.\n\n<skill_resources>\n  <file>scripts/extract.py</file>\n</skill_resources>\n</skill_content>`,
    );
    const third = requests[2]?.messages ?? [];
    expect(contentText(third[third.length - 1]?.content ?? null)).toBe(
      "[An error occurred during execution.]\nThere is no skill 'nope'. Available skills: pdf-tools.",
    );

    const events = await server.allEvents(id);
    const systemPrompt = ofKind(events, 'SystemPromptEvent')[0] as EventBody & { tools: Record<string, unknown>[] };
    expect(systemPrompt.tools).toContainEqual(
      expect.objectContaining({ kind: 'MCPToolDefinition', title: 'invoke_skill', action_type: 'MCPToolAction' }),
    );
    const [invoke] = actionsOf(events);
    expect(invoke).toMatchObject({
      tool_name: 'invoke_skill',
      action: { kind: 'MCPToolAction', data: { name: 'pdf-tools' } },
      security_risk: 'UNKNOWN',
    });
    const [observation] = observationsOf(events);
    expect(observation?.observation).toMatchObject({
      kind: 'MCPToolObservation',
      tool_name: 'invoke_skill',
      is_error: false,
    });
    expect(skillsReport(events).skills).toEqual([
      expect.objectContaining({ name: 'agents', scope: 'project' }),
      expect.objectContaining({ name: 'pdf-tools', scope: 'project' }),
    ]);
  });

  it('a keyword trigger fills extended_content and activated_skills, once per conversation', async () => {
    const stack = await skillStack({ turns: [{ content: 'On it.' }, { content: 'Again.' }] });
    const { server, llm } = stack;
    await writeTree(server.workspace, {
      '.agents/skills/k8s/SKILL.md': skillMd(
        'k8s',
        'Work with clusters.',
        'triggers: [kubectl]\n',
        'Never delete namespaces.',
      ),
    });
    const id = await startWith(stack, 'Run KUBECTL get pods.', {
      user_message_suffix: 'Be brief.',
      system_message_suffix: 'Sign every answer.',
    });
    await server.waitForStatus(id, 'finished');
    await server.sendMessage(id, 'kubectl again please');
    await server.waitForStatus(id, 'finished');

    const messages = ofKind(await server.allEvents(id), 'MessageEvent').filter(
      (e) => e.source === 'user',
    ) as (EventBody & {
      activated_skills: string[];
      extended_content: { text: string }[];
    })[];
    expect(messages.map((m) => m.activated_skills)).toEqual([['k8s'], []]);
    expect(messages[0]?.extended_content.map((c) => c.text.split('\n')[0])).toEqual(['<EXTRA_INFO>', 'Be brief.']);
    expect(messages[0]?.extended_content[0]?.text).toContain('keyword match for "kubectl"');
    expect(messages[0]?.extended_content[0]?.text).toContain('Never delete namespaces.');
    expect(messages[1]?.extended_content.map((c) => c.text)).toEqual(['Be brief.']);
    expect((await server.conversation(id)).activated_knowledge_skills).toEqual(['k8s']);

    const first = (await recordedRequests(llm))[0]?.body as ChatBody;
    const user = first.messages.find((m) => m.role === 'user');
    expect(contentText(user?.content ?? null)).toContain('Never delete namespaces.');
    const system = contentText(first.messages[0]?.content ?? null);
    expect(system.endsWith('Sign every answer.')).toBe(true);
    expect(system).toContain('<name>k8s</name>');
  });

  it('a triggered skill carrying a secret value reaches the message and the LLM masked', async () => {
    const stack = await skillStack({ turns: [{ content: 'Deployed.' }] });
    const { server, llm } = stack;
    const secret = 'tok-skill-s3cret-42';
    await writeTree(server.workspace, {
      '.agents/skills/deploy/SKILL.md': skillMd(
        'deploy',
        'Deploy.',
        'triggers: [deploy]\n',
        `Use the token ${secret}.`,
      ),
    });
    const reply = await server.api<{ id: string }>('POST', '/api/conversations', {
      agent: { llm: llmConfig(llm), tools: [{ name: 'terminal' }] },
      workspace: { working_dir: server.workspace },
      secrets: { DEPLOY_TOKEN: secret },
      initial_message: { role: 'user', content: [{ type: 'text', text: 'deploy it' }], run: true },
    });
    expect(reply.status, reply.text).toBe(201);
    await server.waitForStatus(reply.body.id, 'finished');
    const events = JSON.stringify(await server.allEvents(reply.body.id));
    expect(events).toContain('Use the token <secret-hidden>.');
    expect(events).not.toContain(secret);
    expect(JSON.stringify(await recordedRequests(llm))).not.toContain(secret);
  });

  it('loads an organization repository (a bare repository by file:// URL and through the provider), at the recorded commit after a restart', async () => {
    const stack = await skillStack({
      turns: [
        {
          tool_calls: [{ name: 'invoke_skill', arguments: { name: 'review' } }],
          when: { last_user_message_contains: 'first' },
        },
        { content: 'Reviewed.', when: { last_tool_result_contains: 'Check the tests first.' } },
        {
          tool_calls: [{ name: 'invoke_skill', arguments: { name: 'review' } }],
          when: { last_user_message_contains: 'second' },
        },
        { content: 'Reviewed again.' },
      ],
    });
    const { server, llm, repos } = stack;
    const org = await TestRepository.create(repos, 'acme/.agents');
    const sha = await org.commit({
      'skills/review/SKILL.md': skillMd('review', 'Review a change.', '', 'Check the tests first.'),
    });
    const user = await TestRepository.create(repos, 'me/.agents');
    await user.commit({ 'skills/notes/SKILL.md': skillMd('notes', 'Take notes.') });
    const id = await startWith(stack, 'Review it (first).', {
      skill_repositories: [
        { source: org.url, scope: 'organization' },
        { source: 'github:me/.agents', scope: 'user' },
      ],
    });
    await server.waitForStatus(id, 'finished');
    const report = skillsReport(await server.allEvents(id));
    expect(report.skills.map((s) => [s.name, s.scope])).toEqual([
      ['notes', 'user'],
      ['review', 'organization'],
    ]);
    expect(report.repositories.map((r) => [r.source, r.resolved_ref, r.error])).toEqual([
      [org.url, sha, null],
      ['github:me/.agents', expect.stringMatching(/^[0-9a-f]{40}$/), null],
    ]);

    // The branch moves on, the server restarts: the conversation keeps the commit it started with.
    await org.commit({ 'skills/review/SKILL.md': skillMd('review', 'Review a change.', '', 'Rewritten.') });
    await stack.stop();
    await stack.start();
    await server.sendMessage(id, 'And the second change.');
    await server.waitForStatus(id, 'finished');
    const last = (await recordedRequests(llm)).at(-1)?.body as ChatBody;
    const toolResults = last.messages.filter((m) => m.role === 'tool').map((m) => contentText(m.content));
    expect(toolResults).toHaveLength(2);
    expect(toolResults[1]).toContain('Check the tests first.');
    expect(toolResults[1]).not.toContain('Rewritten.');
  });

  it('a repository that cannot be fetched or a broken skill never stops the conversation: diagnostics and a log line', async () => {
    const stack = await skillStack({ turns: [{ content: 'Fine.' }] });
    const { server, logs } = stack;
    await writeTree(server.workspace, { '.agents/skills/broken/SKILL.md': '---\nname: broken\n---\n' });
    const id = await startWith(stack, 'Hello.', {
      skill_repositories: [{ source: 'github:acme/missing', scope: 'organization' }],
    });
    await server.waitForStatus(id, 'finished');
    const report = skillsReport(await server.allEvents(id));
    expect(report.skills).toEqual([]);
    expect(report.diagnostics.map((d) => [d.severity, d.message])).toEqual([
      ['error', expect.stringMatching(/^cannot be fetched: \S/)],
      ['error', 'is required'],
    ]);
    const line = logs.map((l) => JSON.parse(l)).find((l) => l.msg === 'skill problems');
    expect(line).toMatchObject({ level: 40, conversation_id: id });
    expect(line.problems).toHaveLength(2);
  });
});
