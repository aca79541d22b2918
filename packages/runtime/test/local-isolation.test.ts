import { lookup } from 'node:dns/promises';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LocalRuntime, type RuntimeSandbox } from '@bosun/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_COMMAND } from '../../../test/support/sandbox-bundle.ts';
import { connectProbe, lowPortReplyServer, reachable, replyServer, sh } from './support/sandbox-shell.ts';

/** The Bosun installation the sandboxes see read-only (this worktree). */
const INSTALLATION = fileURLToPath(new URL('../../../', import.meta.url));
const APP_SECRET = `app-secret-${process.pid}-never-in-a-sandbox`;

/**
 * Two real sandboxes (`bosun agent-server` under bubblewrap), probed from inside through their agent servers: the
 * app's data directory (a secret file inside the Bosun installation, which they see), the app's environment,
 * each other's workspaces, the host's loopback services and the read-only system.
 */
describe('local runtime: what a sandbox can reach', () => {
  let root: string;
  let appData: string;
  let runtime: LocalRuntime;
  let closed: RuntimeSandbox;
  let allowed: RuntimeSandbox;
  let open: RuntimeSandbox;
  let echo: Awaited<ReturnType<typeof replyServer>>;
  /** Below 1024 when the runtime runs as root (only then can a sandbox's namespace open such a port). */
  let low: Awaited<ReturnType<typeof replyServer>>;
  /** A name the host resolves to its loopback: the sandbox reaches it on an address of its own (127.0.1.x). */
  let named: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'bosun-runtime-'));
    // Inside the installation, like the default `.bosun` of `npm start`: visible unless hidden.
    appData = await mkdtemp(join(INSTALLATION, '.test-app-data-'));
    await writeFile(join(appData, 'secret.txt'), APP_SECRET);
    process.env.BOSUN_TEST_APP_SECRET = APP_SECRET;
    echo = await replyServer('hello from the host');
    low =
      process.getuid?.() === 0
        ? await lowPortReplyServer('hello from a low port')
        : await replyServer('hello from a low port');
    const resolved = await lookup(hostname(), { family: 4 }).catch(() => undefined);
    named = resolved?.address === '127.0.0.1' ? hostname() : 'localhost';
    runtime = await LocalRuntime.open({
      root,
      command: SANDBOX_COMMAND,
      hiddenPaths: [appData],
      startTimeoutMs: 90_000,
      stopGraceMs: 5_000,
    });
    [closed, allowed, open] = await Promise.all([
      runtime.start({ sessionId: 'closed', environment: { OWN_SETTING: 'its-own' } }),
      runtime.start({
        sessionId: 'allowed',
        network: {
          mode: 'allow',
          hosts: [
            { host: '127.0.0.1', port: echo.port },
            { host: named, port: low.port },
          ],
        },
      }),
      runtime.start({ sessionId: 'open', network: { mode: 'open' } }),
    ]);
  }, 180_000);

  afterAll(async () => {
    await runtime?.close();
    echo?.close();
    low?.close();
    delete process.env.BOSUN_TEST_APP_SECRET;
    await rm(appData, { recursive: true, force: true });
    await rm(root, { recursive: true, force: true });
  });

  it('starts to RUNNING, and its agent server answers with its session key at the URL given (only with it)', async () => {
    expect(closed).toMatchObject({ status: 'RUNNING', statusDetail: null, sessionId: 'closed' });
    expect(closed.sessionApiKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const withKey = await fetch(`${closed.url}/api/tools/`, {
      headers: { 'X-Session-API-Key': `${closed.sessionApiKey}` },
    });
    expect(withKey.status).toBe(200);
    expect((await fetch(`${closed.url}/api/tools/`)).status).toBe(401);
    expect(closed.isolation).toContain('network: none');
  });

  it('cannot read the app data directory, though it sees the installation around it', async () => {
    const result = await sh(
      closed,
      `ls ${INSTALLATION}package.json; cat ${join(appData, 'secret.txt')}; ls -A ${appData}`,
    );
    expect(result.stdout).toContain('package.json');
    expect(result.stdout).not.toContain(APP_SECRET);
    expect(result.stdout + result.stderr).toContain('No such file');
    expect(await readFile(join(appData, 'secret.txt'), 'utf8')).toBe(APP_SECRET);
  });

  it("sees none of the app's environment, only its own", async () => {
    const result = await sh(closed, 'env; cat /proc/1/environ | tr "\\0" "\\n"');
    expect(result.stdout).not.toContain(APP_SECRET);
    expect(result.stdout).not.toContain('BOSUN_TEST_APP_SECRET');
    expect(result.stdout).toContain('OWN_SETTING=its-own');
  });

  it('writes only in its workspace, never in the system or the installation', async () => {
    const result = await sh(
      closed,
      `echo ok > /workspace/mine && cat /workspace/mine; for p in /usr/x /etc/x ${INSTALLATION}x ${appData}/x /x; do touch $p 2>/dev/null && echo "WROTE $p"; done; echo done`,
    );
    expect(result.stdout).toContain('ok');
    expect(result.stdout).not.toContain('WROTE');
    expect(result.stdout).toContain('done');
  });

  it("cannot see another sandbox's workspace or processes", async () => {
    await sh(allowed, 'echo theirs > /workspace/private.txt');
    const theirs = join(root, allowed.id, 'workspace', 'private.txt');
    const result = await sh(closed, `cat ${theirs}; ls ${root}; ps -e -o pid=,comm= | wc -l`);
    expect(result.stdout).not.toContain('theirs');
    expect(result.stdout + result.stderr).toContain('No such file');
    // Its own few processes (init, socat, the agent server, this shell), not the host's.
    expect(Number(result.stdout.trim().split('\n').at(-1))).toBeLessThan(12);
  });

  it("cannot connect to the host's PostgreSQL, Redis or anything else with network none", async () => {
    expect(await reachable('127.0.0.1', 5432)).toBe(true);
    expect(await reachable('127.0.0.1', 6379)).toBe(true);
    for (const port of [5432, 6379, echo.port]) {
      const result = await sh(closed, connectProbe('127.0.0.1', port));
      expect(result.stdout).toContain('REFUSED');
    }
    // Nor PostgreSQL's Unix socket (the host's /run is not the sandbox's).
    const socket = '/var/run/postgresql/.s.PGSQL.5432';
    if (existsSync(socket)) expect((await sh(closed, `ls -A ${socket} || echo GONE`)).stdout).toContain('GONE');
  });

  it('reaches only its allow-listed host:port with network allow', async () => {
    const through = await sh(allowed, connectProbe('127.0.0.1', echo.port));
    expect(through.stdout).toContain('CONNECTED');
    const reply = await sh(
      allowed,
      `${process.execPath} -e "require('net').connect(${echo.port},'127.0.0.1').pipe(process.stdout)"`,
    );
    expect(reply.stdout).toContain('hello from the host');
    for (const port of [5432, 6379])
      expect((await sh(allowed, connectProbe('127.0.0.1', port))).stdout).toContain('REFUSED');
    // By name, below 1024 when root (the sandbox's hosts file gives the name an address of its own).
    const byName = await sh(
      allowed,
      `${process.execPath} -e "require('net').connect(${low.port},'${named}').pipe(process.stdout)"`,
    );
    expect(byName.stdout).toContain('hello from a low port');
    expect((await sh(closed, connectProbe('127.0.0.1', low.port))).stdout).toContain('REFUSED');
  });

  it('reaches the host network, loopback included, with network open (and still not the app data)', async () => {
    expect(open.isolation).toContain('network: open');
    expect((await sh(open, connectProbe('127.0.0.1', echo.port))).stdout).toContain('CONNECTED');
    expect((await sh(open, `cat ${join(appData, 'secret.txt')}`)).stdout).not.toContain(APP_SECRET);
  });

  it('cannot make namespaces of its own (seccomp), yet runs programs and their children', async (context) => {
    if (!closed.isolation.some((line) => line.startsWith('seccomp:'))) {
      context.skip(`no seccomp filter on this machine (the runtime reports: ${closed.isolation.join('; ')})`);
    }
    const result = await sh(closed, 'unshare -U true; unshare -rn true; git --version; sh -c "echo child-ran"');
    expect(result.stderr).toContain('unshare failed: Operation not permitted');
    expect(result.stdout).toContain('git version');
    expect(result.stdout).toContain('child-ran');
  });

  it("runs the browser tools' Chromium (headless, its own sandbox off) under all of it", async (context) => {
    if (!existsSync('/usr/bin/chromium')) context.skip('Chromium is not installed (apt-get install chromium)');
    const page = 'data:text/html,<p>from-chromium</p>';
    const result = await sh(
      closed,
      `timeout 60 chromium --headless=new --no-sandbox --disable-gpu --dump-dom '${page}' 2>&1`,
    );
    expect(result.stdout).toContain('<p>from-chromium</p>');
  }, 90_000);

  it('reports what it enforces', async () => {
    const health = await runtime.health();
    expect(health).toMatchObject({ backend: 'local', isolated: true, running: 3 });
    expect(health.enforced.join('\n')).toContain('bubblewrap');
  });
});
