import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import { describe, expect, it, onTestFinished } from 'vitest';
import { TestRepository, serveGitOverHttp, tempDir } from '../../packages/sources/test/git/support.ts';
import { type ConversationInfo, type E2EServer, ofKind, restartableServer } from './support.ts';
import { finish, terminal } from './turns.ts';

/** A plugin whose PreToolUse hook blocks every terminal call, saying which version it is. */
function guardPlugin(version: string): Record<string, string> {
  return {
    '.claude-plugin/plugin.json': JSON.stringify({ name: 'guard', version }),
    'hooks/hooks.json': JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: 'terminal', hooks: [{ type: 'command', command: 'sh "${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh"' }] },
        ],
      },
    }),
    'hooks/guard.sh': `echo "guard ${version}: no terminal (root $CLAUDE_PLUGIN_ROOT)" >&2\nexit 2\n`,
  };
}

interface ResolvedPluginBody {
  source: string;
  original_ref: string | null;
  resolved_ref: string | null;
  repo_path: string | null;
  marketplace: string | null;
  name: string | null;
  problems: { severity: string; path: string | null; message: string }[];
}
type Info = ConversationInfo & { resolved_plugins: ResolvedPluginBody[] };

/** An agent server whose `github:` sources are the bare repositories under `remotes`, restartable on its data. */
async function pluginStack(options: { github?: string; turns?: unknown[] } = {}) {
  const logs: string[] = [];
  const llm: LlmReplay = await startLlmReplay({ script: { turns: (options.turns ?? []) as never[] } });
  onTestFinished(() => llm.close());
  const stack = await restartableServer((root) => ({
    gitProviders: { github: options.github ?? `file://${join(root, 'remotes')}` },
    logLevel: 'info',
    logStream: { write: (line: string) => logs.push(line) },
  }));
  await stack.start();
  return { server: stack.server, llm, logs, remotes: join(stack.root, 'remotes'), restart: stack.restart };
}

async function runMessage(server: E2EServer, id: string, text: string) {
  await server.sendMessage(id, text);
  return server.waitForStatus(id, 'finished');
}

async function rejections(server: E2EServer, id: string): Promise<string[]> {
  return ofKind(await server.allEvents(id, 100), 'UserRejectObservation').map((e) => String(e.rejection_reason));
}

describe('plugins of conversations', () => {
  it("loads a plugin's hook from a branch; a conversation keeps its commit when the branch moves, across a restart", async () => {
    const stack = await pluginStack({
      turns: [terminal('echo a1'), finish(), terminal('echo b1'), finish(), terminal('echo a2'), finish()],
    });
    const { server, llm } = stack;
    const repo = await TestRepository.create(stack.remotes, 'acme/guard');
    const first = await repo.commit(guardPlugin('v1'));
    const plugins = [{ source: 'github:acme/guard', ref: 'main' }];

    const a = (await server.startConversation(llm, { extra: { plugins } })) as Info;
    expect(a.resolved_plugins).toEqual([
      {
        source: 'github:acme/guard',
        original_ref: 'main',
        resolved_ref: first,
        repo_path: null,
        marketplace: null,
        name: 'guard',
        problems: [],
      },
    ]);
    const second = await repo.commit(guardPlugin('v2'));
    const b = (await server.startConversation(llm, { extra: { plugins } })) as Info;
    expect(b.resolved_plugins[0]?.resolved_ref).toBe(second);

    await runMessage(server, a.id, 'try the terminal');
    const [reasonA] = await rejections(server, a.id);
    expect(reasonA).toMatch(/^guard v1: no terminal \(root \/.*\/git\/commits\/[0-9a-f]{40}\)$/);
    await runMessage(server, b.id, 'try the terminal');
    expect(await rejections(server, b.id)).toEqual([expect.stringMatching(/^guard v2: no terminal/)]);

    await stack.restart();
    expect(((await server.conversation(a.id)) as Info).resolved_plugins[0]?.resolved_ref).toBe(first);
    await runMessage(server, a.id, 'and again');
    expect(await rejections(server, a.id)).toEqual([reasonA, expect.stringMatching(/^guard v1: no terminal/)]);
  });

  it('loads a pinned commit from a monorepo directory, and auto-loads a marketplace plugin', async () => {
    const stack = await pluginStack({ turns: [terminal('echo hi'), finish()] });
    const repo = await TestRepository.create(stack.remotes, 'acme/mono');
    const files: Record<string, string> = {
      '.claude-plugin/marketplace.json': JSON.stringify({
        name: 'acme',
        owner: { name: 'Acme' },
        plugins: [
          { name: 'guard', source: './tools/guard' },
          { name: 'other', source: './tools/other' },
        ],
      }),
    };
    for (const [path, content] of Object.entries(guardPlugin('mono'))) files[`tools/guard/${path}`] = content;
    const pinned = await repo.commit(files);
    await repo.commit({ 'tools/guard/hooks/guard.sh': 'exit 0\n' });

    const info = (await stack.server.startConversation(stack.llm, {
      message: 'go',
      extra: {
        plugins: [{ source: 'github:acme/mono', ref: pinned, repo_path: 'tools/guard' }],
      },
    })) as Info;
    expect(info.resolved_plugins).toMatchObject([{ resolved_ref: pinned, repo_path: 'tools/guard', name: 'guard' }]);
    await stack.server.waitForStatus(info.id, 'finished');
    expect(await rejections(stack.server, info.id)).toEqual([expect.stringMatching(/^guard mono: no terminal/)]);

    const market = (await stack.server.startConversation(stack.llm, {
      extra: {
        agent: {
          llm: { model: 'test-model', base_url: stack.llm.baseUrl, api_key: 'k' },
          tools: [{ name: 'terminal' }],
          agent_context: {
            registered_marketplaces: [
              { name: 'acme', source: 'github:acme/mono', ref: 'main', auto_load: ['guard', 'missing'] },
            ],
          },
        },
      },
    })) as Info;
    expect(market.resolved_plugins).toMatchObject([
      {
        marketplace: 'acme',
        name: 'guard',
        repo_path: 'tools/guard',
        resolved_ref: expect.stringMatching(/^[0-9a-f]{40}$/),
      },
      {
        marketplace: 'acme',
        name: null,
        problems: [{ severity: 'error', message: "auto_load names 'missing', which the marketplace does not list" }],
      },
    ]);
    const events = await stack.server.allEvents(market.id, 100);
    expect(ofKind(events, 'ConversationErrorEvent')).toEqual([
      expect.objectContaining({
        code: 'PluginLoadFailed',
        detail: expect.stringContaining("auto_load names 'missing'"),
      }),
    ]);
  });

  it('refuses a repo_path that leaves the repository (422), and reports one that escapes through a link', async () => {
    const stack = await pluginStack();
    const repo = await TestRepository.create(stack.remotes, 'acme/links');
    await repo.commit(guardPlugin('links'));
    await symlink('../../../../..', join(repo.work, 'out'));
    await repo.commit({});
    const body = (plugins: unknown) => ({
      agent: { llm: { model: 'test-model', base_url: stack.llm.baseUrl, api_key: 'k' }, tools: [] },
      workspace: { working_dir: stack.server.workspace },
      plugins,
    });
    const refused = await stack.server.api(
      'POST',
      '/api/conversations',
      body([{ source: 'github:acme/links', repo_path: '../x' }]),
    );
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      detail: [{ loc: ['body', 'plugins', 0, 'repo_path'], msg: "'../x' must not contain '..'", type: 'value_error' }],
    });
    const notRepo = await stack.server.api('POST', '/api/conversations', body([{ source: 'ftp://x/y' }]));
    expect(notRepo.status).toBe(422);
    const twice = { name: 'm', source: 'github:acme/links', auto_load: true };
    const marketplaces = await stack.server.api('POST', '/api/conversations', {
      ...body(null),
      agent: {
        ...body(null).agent,
        agent_context: { registered_marketplaces: [twice, { ...twice, repo_path: '/abs' }] },
      },
    });
    expect(marketplaces.status).toBe(422);
    expect((marketplaces.body as { detail: { loc: unknown[] }[] }).detail.map((d) => d.loc.slice(4).join('.'))).toEqual(
      ['1.repo_path', '1.name'],
    );

    const linked = await stack.server.api<Info>(
      'POST',
      '/api/conversations',
      body([{ source: 'github:acme/links', repo_path: 'out' }]),
    );
    expect(linked.status).toBe(201);
    expect(linked.body.resolved_plugins[0]?.problems).toEqual([
      {
        severity: 'error',
        path: null,
        message: "repo_path: 'out' leads outside the repository (through a symbolic link)",
      },
    ]);
    const events = await stack.server.allEvents(linked.body.id, 100);
    expect(events.map((e) => e.kind)).toEqual(['SystemPromptEvent', 'ConversationErrorEvent']);
  });

  it('fetches a private repository with the conversation secret; without it the failure is visible and nothing leaks', async () => {
    const { dir: remotes, cleanup } = await tempDir('bosun-e2e-private-');
    onTestFinished(cleanup);
    const repo = await TestRepository.create(remotes, 'acme/private');
    const sha = await repo.commit(guardPlugin('private'));
    const git = await serveGitOverHttp(remotes, { username: 'x-access-token', password: 'tok-5ecret' });
    onTestFinished(git.close);
    const stack = await pluginStack({ github: git.url });
    const plugins = [{ source: 'github:acme/private' }];

    const denied = (await stack.server.startConversation(stack.llm, { extra: { plugins } })) as Info;
    expect(denied.resolved_plugins).toMatchObject([
      { resolved_ref: null, name: 'private', problems: [{ severity: 'error' }] },
    ]);
    expect(denied.resolved_plugins[0]?.problems[0]?.message).toMatch(/^cannot fetch github:acme\/private/);

    const allowed = (await stack.server.startConversation(stack.llm, {
      extra: { plugins, secrets: { GITHUB_TOKEN: 'tok-5ecret' } },
    })) as Info;
    expect(allowed.resolved_plugins).toMatchObject([{ resolved_ref: sha, name: 'guard', problems: [] }]);

    const inline = `${git.url.replace('http://', 'http://x-access-token:tok-5ecret@')}/acme/private.git`;
    const viaUrl = (await stack.server.startConversation(stack.llm, {
      extra: { plugins: [{ source: inline }] },
    })) as Info;
    expect(viaUrl.resolved_plugins[0]).toMatchObject({
      resolved_ref: sha,
      source: expect.stringContaining('http://***@'),
    });
    expect((viaUrl.plugins as { source: string }[])[0]?.source).toContain('http://***@');
    await stack.server.allEvents(denied.id, 100);
    expect(stack.server.bodies.join('\n')).not.toContain('tok-5ecret');
    expect(stack.logs.join('\n')).not.toContain('tok-5ecret');
    expect(stack.logs.join('\n')).toContain('plugins loaded');
  });
});
