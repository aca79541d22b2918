import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AgentServerClient, AppServerClient, BosunApiError, downloadAppConversation } from '@bosun/client';
import { MAX_CONVERSATION_FILE_BYTES } from '@bosun/protocol';
import { beforeAll, expect, it } from 'vitest';
import { unzipped as filesOf } from '../../../../test/support/unzip.ts';
import { newConversation } from '../events/support.ts';
import { until } from '../support/until.ts';
import { type Api, type TestUser, describeApi } from './harness.ts';

const SECRET = 'sk-very-secret-value-42';

/** The files of a zip, by name (read with yauzl). */
async function unzipped(bytes: Uint8Array): Promise<Record<string, string>> {
  const files = Object.entries(await filesOf(bytes)).sort(([a], [b]) => (a < b ? -1 : 1));
  return Object.fromEntries(files);
}

async function write(root: string, files: Record<string, string | Uint8Array>) {
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, name)), { recursive: true });
    await writeFile(join(root, name), content);
  }
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.test', ...args], { cwd });

/**
 * A running sandbox of `owner` holding a conversation (started on its agent server with skills turned off, as a
 * start with the user's `disabled_skills` does) whose working directory is a Git repository.
 */
async function conversationInRepository(api: Api, owner: TestUser) {
  const started = await api.call('/api/v1/sandboxes', { method: 'POST', as: owner, body: {} });
  expect(started.body.status, started.text).toBe('RUNNING');
  const sandboxId: string = started.body.id;
  const workingDir = join(await api.workspaceOf(sandboxId), 'project');
  await write(workingDir, {
    'README.md': 'one\n',
    'AGENTS.md': 'Always be kind.\n',
    '.agents/skills/docker.md': '---\nname: docker\ntriggers:\n- container\n---\nUse docker compose.\n',
    '.agents/skills/hidden.md': '---\nname: hidden\n---\nNever shown.\n',
  });
  git(workingDir, 'init', '-q', '-b', 'main');
  git(workingDir, 'add', '.');
  git(workingDir, 'commit', '-q', '-m', 'first');
  await write(workingDir, {
    'README.md': 'two\n',
    'notes/plan.md': '# Plan\nShip it.\n',
    'binary.bin': new Uint8Array([0x89, 0x50, 0x00, 0x01]),
    'big.txt': 'x'.repeat(MAX_CONVERSATION_FILE_BYTES + 1),
    '.openhands/hooks.json': JSON.stringify({
      PreToolUse: [{ matcher: 'terminal', hooks: [{ command: 'echo pre' }] }],
      stop: [{ hooks: [{ command: 'echo stop', timeout: 5 }] }],
    }),
  });
  const agent = new AgentServerClient({
    baseUrl: started.body.exposed_urls[0].url,
    sessionApiKey: started.body.session_api_key,
  });
  const id = randomUUID();
  await agent.post('/api/conversations', {
    body: {
      conversation_id: id,
      agent: {
        llm: { model: 'openai/unused', api_key: 'sk-unused' },
        tools: [],
        agent_context: { disabled_skills: ['hidden'] },
      },
      workspace: { working_dir: workingDir },
    },
  });
  await newConversation(api, owner.id, sandboxId, id);
  return { id, sandboxId, workingDir };
}

describeApi('a conversation’s workspace and export through the app server', (api) => {
  let owner: TestUser;
  let other: TestUser;
  let client: AppServerClient;
  let conversation: Awaited<ReturnType<typeof conversationInRepository>>;
  beforeAll(async () => {
    [owner, other] = await api().users(2);
    client = new AppServerClient({ baseUrl: api().url, apiKey: owner.key });
    conversation = await conversationInRepository(api(), owner);
  });
  const path = (route: string) => `/api/v1/app-conversations/${conversation.id}/${route}`;

  it('reads a file (relative to the working directory, or absolute) and refuses what is no text', async () => {
    const { id, workingDir } = conversation;
    const read = (conversationId: string, filePath: string) =>
      client.get('/api/v1/app-conversations/{conversation_id}/file', {
        params: { conversation_id: conversationId },
        query: { file_path: filePath },
      });
    expect(await read(id, 'notes/plan.md')).toBe('# Plan\nShip it.\n');
    expect(await read(id.replaceAll('-', ''), `${workingDir}/README.md`)).toBe('two\n');
    // OpenHands' clients name files under its sandboxes' project root.
    expect(await read(id, '/workspace/project/notes/plan.md')).toBe('# Plan\nShip it.\n');
    const answers = {
      missing: await api().call(`${path('file')}?file_path=nope.md`, { as: owner }),
      binary: await api().call(`${path('file')}?file_path=binary.bin`, { as: owner }),
      big: await api().call(`${path('file')}?file_path=big.txt`, { as: owner }),
      outside: await api().call(`${path('file')}?file_path=/etc/passwd`, { as: owner }),
      directory: await api().call(`${path('file')}?file_path=notes`, { as: owner }),
      noPath: await api().call(path('file'), { as: owner }),
    };
    expect(answers.missing).toMatchObject({ status: 404, body: { detail: 'File not found: nope.md' } });
    expect(answers.binary).toMatchObject({ status: 415, body: { detail: 'The file is not UTF-8 text: binary.bin' } });
    expect(answers.big.status).toBe(413);
    expect(answers.outside.status).toBe(403);
    expect(answers.outside.body.detail).toMatch(/outside the workspace/);
    expect(answers.directory.status).toBe(422);
    expect(answers.directory.body.detail[0]).toMatchObject({ loc: ['query', 'file_path'], msg: 'Path is not a file' });
    expect(answers.noPath.status).toBe(422);
    expect(answers.noPath.body.detail[0].loc).toEqual(['query', 'file_path']);
  });

  it('answers the Git changes and a diff of the working directory’s repository', async () => {
    const params = { conversation_id: conversation.id };
    const changes = await client.get('/api/v1/app-conversations/{conversation_id}/git/changes', { params });
    expect(changes).toEqual(
      expect.arrayContaining([
        { status: 'UPDATED', path: 'README.md' },
        { status: 'ADDED', path: 'notes/plan.md' },
      ]),
    );
    expect(
      await client.get('/api/v1/app-conversations/{conversation_id}/git/changes', {
        params,
        query: { path: '.', ref: 'HEAD' },
      }),
    ).toEqual(changes);
    expect(
      await client.get('/api/v1/app-conversations/{conversation_id}/git/diff', {
        params,
        query: { path: 'README.md' },
      }),
    ).toEqual({ original: 'one\n', modified: 'two\n' });
    const unknownRef = await api().call(`${path('git/changes')}?ref=nosuchbranch`, { as: owner });
    expect(unknownRef.status).toBe(422);
    expect(unknownRef.body.detail[0].loc).toEqual(['query', 'ref']);
    for (const [query, loc] of [
      ['', ['query', 'path']],
      ['?path=notes', ['query', 'path']],
      ['?path=README.md&ref=-x', ['query', 'ref']],
    ] as const) {
      const answer = await api().call(`${path('git/diff')}${query}`, { as: owner });
      expect(answer.status, `${query}: ${answer.text}`).toBe(422);
      expect(answer.body.detail[0].loc).toEqual(loc);
    }
  });

  it('answers the skills the agent loads (its disabled ones left out) and the hooks by event', async () => {
    const params = { conversation_id: conversation.id };
    const listed = await client.get('/api/v1/app-conversations/{conversation_id}/skills', { params });
    const { skills } = listed;
    expect(skills.map((skill) => skill.name).sort()).toEqual(['agents', 'docker']);
    // From the repository it works on, at the commit checked out there.
    expect(skills.find((skill) => skill.name === 'docker')).toEqual({
      name: 'docker',
      type: 'knowledge',
      content: expect.stringContaining('Use docker compose.'),
      triggers: ['container'],
      origin: 'repository',
      origin_source: conversation.workingDir,
      commit: expect.stringMatching(/^[0-9a-f]{40}$/),
    });
    expect(listed.repositories).toEqual([]);
    expect(skills.find((skill) => skill.name === 'agents')).toMatchObject({ type: 'repo', triggers: [] });
    expect(await client.get('/api/v1/app-conversations/{conversation_id}/hooks', { params })).toEqual({
      hooks: [
        {
          event_type: 'pre_tool_use',
          matchers: [
            { matcher: 'terminal', hooks: [{ type: 'command', command: 'echo pre', timeout: 60, async: false }] },
          ],
        },
        {
          event_type: 'stop',
          matchers: [{ matcher: '*', hooks: [{ type: 'command', command: 'echo stop', timeout: 5, async: false }] }],
        },
      ],
    });
    // A hooks file the agent server cannot read is its failure, said.
    const hooksFile = join(conversation.workingDir, '.openhands', 'hooks.json');
    const good = await readFile(hooksFile, 'utf8');
    await writeFile(hooksFile, '{ not json');
    const broken = await api().call(path('hooks'), { as: owner });
    await writeFile(hooksFile, good);
    expect(broken.status).toBe(502);
    expect(broken.body.detail).toMatch(/^The agent server did not read the hooks: 422 /);
  });

  it('is 404 for another user’s or an unknown conversation, 502 when the agent server lacks it', async () => {
    for (const route of ['file?file_path=README.md', 'git/changes', 'git/diff?path=README.md', 'skills', 'hooks']) {
      for (const [who, conversationId] of [
        [other, conversation.id],
        [owner, randomUUID()],
      ] as const) {
        const answer = await api().call(`/api/v1/app-conversations/${conversationId}/${route}`, { as: who });
        expect(answer, route).toMatchObject({ status: 404, body: { detail: 'Conversation not found' } });
      }
      const badId = await api().call(`/api/v1/app-conversations/not-an-id/${route}`, { as: owner });
      expect(badId.status).toBe(422);
      expect(badId.body.detail[0].loc).toEqual(['path', 'conversation_id']);
      // The app's row alone: its sandbox's agent server has no such conversation.
      const rowOnly = await newConversation(api(), owner.id, conversation.sandboxId);
      const refused = await api().call(`/api/v1/app-conversations/${rowOnly}/${route}`, { as: owner });
      expect(refused.status, refused.text).toBe(502);
      expect(refused.body.detail).toMatch(/^The agent server did not read the conversation: 404 /);
    }
  });

  it('exports the conversation from the app’s store, its secrets masked, also once the sandbox is paused or gone', async () => {
    const { id: live, sandboxId } = conversation;
    const secret = await api().call('/api/v1/secrets', {
      method: 'POST',
      as: owner,
      body: { name: 'API', value: SECRET },
    });
    expect(secret.status, secret.text).toBe(201);
    // A conversation whose events are only these (its agent server has none to post).
    const id = await newConversation(api(), owner.id, sandboxId);
    const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();
    const events = [
      { id: randomUUID(), kind: 'PauseEvent', timestamp: at(1), source: 'user' },
      { id: 'evt/../2', kind: 'MessageEvent', timestamp: at(2), source: 'agent', text: `the key is ${SECRET}` },
    ];
    await api().repositories.events.append(
      id,
      owner.id,
      events.map((event) => ({ ...event, json: JSON.stringify(event) })),
    );
    // The agent server's events of the conversation its agent ran have reached the app (its webhook, or a pull).
    const storedOf = () => api().repositories.events.page(owner.id, live, { descending: false, limit: 1000 });
    await until(storedOf, (rows) => rows.length > 0, 'the conversation’s first events in the app’s store');
    const paused = await api().call(`/api/v1/sandboxes/${sandboxId}/pause`, { method: 'POST', as: owner });
    expect(paused.status).toBe(200);
    const answer = await fetch(`${api().url}/api/v1/app-conversations/${id}/download`, { headers: owner.headers });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/zip');
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="conversation_${id}.zip"`);
    const files = await unzipped(new Uint8Array(await answer.arrayBuffer()));
    expect(Object.keys(files)).toEqual([
      `event_000001_${events[0]?.id}.json`,
      'event_000002_evt____2.json',
      'meta.json',
    ]);
    const meta = JSON.parse(files['meta.json'] as string);
    expect(meta).toMatchObject({ id, sandbox_id: sandboxId, sandbox_status: 'PAUSED', session_api_key: null });
    expect(JSON.parse(files[`event_000001_${events[0]?.id}.json`] as string)).toEqual(events[0]);
    expect(JSON.parse(files['event_000002_evt____2.json'] as string)).toMatchObject({ text: 'the key is **********' });
    expect(JSON.stringify(files)).not.toContain(SECRET);
    // The conversation its agent ran: every event its agent server posted, in the conversation's order.
    const stored = await storedOf();
    const exported = await unzipped(await downloadAppConversation(client, live));
    expect(Object.keys(exported)).toEqual([
      ...stored.map((event, index) => `event_${String(index + 1).padStart(6, '0')}_${event.event_id}.json`),
      'meta.json',
    ]);

    // The workspace routes say how to go on: resume (409), or nothing to resume (410); the export still answers.
    const stopped = await api().call(`${path('file')}?file_path=README.md`, { as: owner });
    expect(stopped.status).toBe(409);
    expect(stopped.body.detail).toContain(`POST /api/v1/app-conversations/${live}/resume`);
    const gone = await newConversation(api(), owner.id, 'a-sandbox-that-is-gone');
    for (const route of ['file?file_path=x', 'git/changes', 'git/diff?path=x', 'skills', 'hooks']) {
      const answer = await api().call(`/api/v1/app-conversations/${gone}/${route}`, { as: owner });
      expect(answer.status, route).toBe(410);
    }
    expect(Object.keys(await unzipped(await downloadAppConversation(client, gone)))).toEqual(['meta.json']);
    const theirs = await api().call(path('download'), { as: other });
    expect(theirs).toMatchObject({ status: 404, body: { detail: 'Conversation not found' } });
    await expect(downloadAppConversation(client, randomUUID())).rejects.toBeInstanceOf(BosunApiError);
    expect((await api().call('/api/v1/app-conversations/nope/download', { as: owner })).status).toBe(422);
    const document = (await api().call('/openapi.json')).body;
    const operation = document.paths['/api/v1/app-conversations/{conversation_id}/download'].get;
    expect(Object.keys(operation.responses['200'].content)).toEqual(['application/zip']);
  });
});
