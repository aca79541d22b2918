import { execFileSync } from 'node:child_process';
import { mkdtemp, open, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FsDeadlineError, withDeadline } from '../src/conversations/workspace.ts';
import { type ConversationInfoBody, call } from './support/http.ts';
import { type TestServer, startRequest, startTestServer } from './support/server.ts';

const LOC = ['body', 'workspace', 'working_dir'];

let server: TestServer;
let rooted: TestServer;
let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'bosun-working-dir-'));
  await writeFile(join(scratch, 'a-file'), 'not a directory');
  await symlink('/proc/1', join(scratch, 'to-proc'));
  server = await startTestServer();
  rooted = await startTestServer({ workspaceRoot: join(scratch, 'root') });
});
afterAll(async () => {
  await Promise.all([server?.close(), rooted?.close()]);
  await rm(scratch, { recursive: true, force: true });
});

function create(base: string, workingDir: string) {
  return call<ConversationInfoBody & { detail: { loc: unknown[]; msg: string; type: string }[] }>(
    base,
    '/api/conversations',
    { method: 'POST', json: startRequest({ workspace: { working_dir: workingDir } }) },
  );
}

async function conversationCount(base: string): Promise<number> {
  return (await call<number>(base, '/api/conversations/count')).body;
}

/** A 422 on `working_dir` whose message matches `reason`, with nothing stored. */
async function expectRejected(base: string, workingDir: string, reason: RegExp) {
  const before = await conversationCount(base);
  const reply = await create(base, workingDir);
  expect(reply.status, reply.text).toBe(422);
  expect(reply.body.detail).toEqual([{ loc: LOC, msg: expect.stringMatching(reason), type: 'value_error' }]);
  expect(await conversationCount(base)).toBe(before);
}

describe('POST /api/conversations: working_dir', () => {
  it('creates a missing working_dir, parents included', async () => {
    const dir = join(scratch, 'new', 'nested', 'project');
    const reply = await create(server.url, dir);
    expect(reply.status, reply.text).toBe(201);
    expect((await stat(dir)).isDirectory()).toBe(true);
  });

  it('refuses kernel pseudo-filesystems before touching the disk (mkdir under /proc never returned)', async () => {
    await expectRejected(server.url, '/proc/1/x', /\/proc/);
    await expectRejected(server.url, '/sys/kernel/x', /\/sys/);
    await expectRejected(server.url, '/dev/null/x', /\/dev/);
    await expectRejected(server.url, '/tmp/../proc/self/x', /\/proc/);
  });

  it('refuses a symbolic link that leads into /proc', async () => {
    await expectRejected(server.url, join(scratch, 'to-proc', 'x'), /\/proc/);
  });

  it('refuses a relative path', async () => {
    await expectRejected(server.url, 'relative/dir', /absolute/);
  });

  it('is a 422 naming the reason when the directory cannot be created', async () => {
    await expectRejected(server.url, join(scratch, 'x'.repeat(256)), /too long.*ENAMETOOLONG/);
    await expectRejected(server.url, join(scratch, 'a-file', 'x'), /not a directory.*ENOTDIR/);
    await expectRejected(server.url, join(scratch, 'a-file'), /not a directory/);
  });

  it('keeps working_dir inside the workspace root when one is configured', async () => {
    await expectRejected(rooted.url, join(scratch, 'elsewhere'), /inside the workspace root/);
    await expectRejected(rooted.url, join(scratch, 'root', '..', 'escaped'), /inside the workspace root/);
    await expectRejected(rooted.url, join(scratch, 'rootless'), /inside the workspace root/);
    const reply = await create(rooted.url, join(scratch, 'root', 'project'));
    expect(reply.status, reply.text).toBe(201);
  });
});

describe('withDeadline', () => {
  it('turns a filesystem step that does not finish into an error instead of a hang', async () => {
    // Opening a FIFO for reading blocks (in libuv's thread pool, like a mkdir that never returns) until a writer
    // comes.
    const fifo = join(scratch, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const opening = open(fifo, 'r');
    await expect(withDeadline(`open ${fifo}`, opening, 50)).rejects.toThrow(FsDeadlineError);
    // Let the blocked step finish, so it does not hold a thread of the pool.
    const writer = await open(fifo, 'w');
    await (await opening).close();
    await writer.close();
  });
});
