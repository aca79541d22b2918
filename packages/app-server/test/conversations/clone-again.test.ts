import { access, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentServerClient } from '@bosun/client';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { git } from '../../../sources/test/git/support.ts';
import { cloneRepository } from '../../src/conversations/repository.ts';
import { gitUrlsOf } from '../../src/git/provider-urls.ts';
import { appServerConfig } from '../../src/index.ts';
import { SANDBOX_SPECS, agentClient } from '../../src/sandboxes/index.ts';
import { withGitProviders } from '../../src/sandboxes/launch.ts';
import { describeApi } from '../api/harness.ts';
import { processesUnder } from '../e2e/app-process.ts';
import { until } from '../support/until.ts';
import { type HeldRemote, heldRemote } from './held-remote.ts';

/**
 * The clone step of a start run again in the same sandbox (a takeover: the sandbox outlives the replica that ran
 * the first clone, which may still be going or have left a half-made repository): what it leaves is a complete
 * clone, and one that is complete is kept.
 */

const SLOW = { repository: 'acme/slow', branch: null, provider: 'github' as const, access: null };
/** A remote nothing can be cloned from (nothing listens): a clone asked of it fails at once. */
const NOWHERE = { gitUrls: gitUrlsOf({ git_github_url: 'http://127.0.0.1:1' }) };

let held: HeldRemote;
let open: HeldRemote;
beforeAll(async () => {
  [held, open] = await Promise.all([heldRemote(['acme/slow']), heldRemote(['acme/slow'])]);
  open.open();
});
afterAll(async () => {
  await Promise.all([held?.close(), open?.close()]);
});

const from = (remote: HeldRemote) => ({ gitUrls: gitUrlsOf({ git_github_url: remote.url }) });

describeApi('the clone of a start run again over what an earlier run left', (api) => {
  let agent: AgentServerClient;
  let workspace: string;
  let slow: string;
  beforeAll(async () => {
    const owner = await api().user();
    const [spec] = withGitProviders(SANDBOX_SPECS, appServerConfig({}));
    const sandbox = await api().sandboxes.start(spec as NonNullable<typeof spec>, owner.id);
    expect(sandbox.status, sandbox.statusDetail ?? '').toBe('RUNNING');
    agent = agentClient(sandbox.agentServerUrl as string, sandbox.sessionApiKey as string, 60_000);
    workspace = await api().workspaceOf(sandbox.id);
    slow = join(workspace, 'slow');
  });

  // A clone a test left waiting at the held remote fails there, not in the next test.
  afterEach(() => held.refuse());

  /** `slow` in the workspace is the remote's repository, checked out and unchanged. */
  async function expectCloned() {
    expect(await readFile(join(slow, 'README.md'), 'utf8')).toBe('acme/slow\n');
    expect(await git(slow, 'status', '--porcelain')).toBe('');
  }

  /** A first run's clone, waiting at the held remote; `ended` settles with 'cloned' or its error's message. */
  async function cloneHeldAtItsRemote(): Promise<{ ended: Promise<string> }> {
    const first = cloneRepository(agent, from(held), SLOW).then(
      () => 'cloned',
      (error: Error) => error.message,
    );
    await until(
      async () => held.waiting(),
      (waiting) => waiting > 0,
      'the first clone to reach its remote',
    );
    return { ended: first };
  }

  it('replaces the clone a stopped run left under way with a complete one, and leaves nothing else', async () => {
    // The first run's clone waits at its remote (its replica stopped; its sandbox goes on).
    const { ended: first } = await cloneHeldAtItsRemote();

    expect(await cloneRepository(agent, from(open), SLOW)).toBe(`${workspace}/slow`);
    await expectCloned();
    // The first run's clone now ends (failing): the complete clone stays, with nothing of the first beside it.
    held.refuse();
    expect(await first).toMatch(/^Could not clone acme\/slow/);
    await expectCloned();
    expect(await readdir(workspace)).toEqual(['slow']);
  });

  it('replaces what a killed git clone left (SIGKILL: nothing cleaned up) with a complete clone', async () => {
    await rm(slow, { recursive: true, force: true });
    const { ended: first } = await cloneHeldAtItsRemote();
    // The clone's processes (and its shell), by their ids: those naming this file's held remote.
    for (const pid of await processesUnder(held.url)) process.kill(pid, 'SIGKILL');
    expect(await first).toMatch(/^Could not clone acme\/slow/);
    held.refuse();

    expect(await cloneRepository(agent, from(open), SLOW)).toBe(`${workspace}/slow`);
    await expectCloned();
    expect(await readdir(workspace)).toEqual(['slow']);
  });

  it('clones again over a half-made clone: an unborn HEAD, or a HEAD without an index (stopped in checkout)', async () => {
    const halfMade = [
      ['init', '--quiet', 'slow'],
      ['clone', '--quiet', '--no-checkout', `${open.url}/acme/slow.git`, 'slow'],
    ];
    for (const making of halfMade) {
      await rm(slow, { recursive: true, force: true });
      await git(workspace, ...making);
      expect(await cloneRepository(agent, from(open), SLOW)).toBe(`${workspace}/slow`);
      await expectCloned();
    }
  });

  it('keeps a complete clone (asking no remote), and an empty repository’s clone the user wrote in', async () => {
    await writeFile(join(slow, 'WORK.md'), 'the user’s work\n');
    expect(await cloneRepository(agent, NOWHERE, SLOW)).toBe(`${workspace}/slow`);
    expect(await readFile(join(slow, 'WORK.md'), 'utf8')).toBe('the user’s work\n');

    await rm(slow, { recursive: true, force: true });
    await git(workspace, 'init', '--quiet', 'slow');
    await writeFile(join(slow, 'NOTES.md'), 'notes\n');
    expect(await cloneRepository(agent, NOWHERE, SLOW)).toBe(`${workspace}/slow`);
    await access(join(slow, 'NOTES.md'));
  });

  it('refuses to clone over a directory of that name that is no repository, leaving it as it is', async () => {
    await rm(slow, { recursive: true, force: true });
    await mkdir(slow);
    await writeFile(join(slow, 'MINE.md'), 'mine\n');
    await expect(cloneRepository(agent, from(open), SLOW)).rejects.toThrow(/slow exists and is not a Git repository/);
    expect(await readdir(slow)).toEqual(['MINE.md']);
    expect(await readdir(workspace)).toEqual(['slow']);
  });
});
