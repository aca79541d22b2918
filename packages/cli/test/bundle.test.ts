import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { killServers, startServer, stopServer } from './server-process.ts';

/**
 * `npm start` runs the bundle `npm run build` makes (Bosun and most of its dependencies in one file), not the
 * TypeScript sources the other tests run: this is the front door, so it is tested as it is shipped.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
// Inside the repository, so the packages left out of the bundle resolve from node_modules as they do for npm start.
// Under npm start's name: the app's sandboxes run the Bosun the app runs, which the runtime knows by that name
// (see packages/runtime, bosun-command.ts).
const BUNDLE = join(ROOT, 'packages/cli/dist', `bundle-test-${process.pid}`, 'bosun.mjs');
const exec = promisify(execFile);
let dataDir: string;

beforeAll(async () => {
  await exec(process.execPath, [join(ROOT, 'scripts/build.mjs'), dirname(BUNDLE)], { cwd: ROOT });
  dataDir = await mkdtemp(join(tmpdir(), 'bosun-bundle-'));
  // The app's sandboxes' user must reach <data_dir>/sandboxes.
  await chmod(dataDir, 0o711);
}, 180_000);

afterAll(async () => {
  killServers();
  await rm(dirname(BUNDLE), { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

/** Starts the bundled agent server; resolves with its URL. */
async function startAgentServer(): Promise<string> {
  const started = await startServer(
    BUNDLE,
    ['agent-server', '--port', '0', '--data-dir', dataDir],
    { BOSUN_LOG_LEVEL: 'warn' },
    /Default model|No default LLM/,
  );
  if (!('url' in started)) throw new Error(`the bundled server exited (${started.code}):\n${started.output}`);
  return started.url;
}

describe('the bundle npm start runs', () => {
  it('loads what only some setups use (Kubernetes, PostgreSQL, a browser, Redis, S3, MCP) on first use, not at start', async () => {
    // Every package outside the bundle loads through `require` (see scripts/build.mjs): Node's require cache lists
    // them all, written when the server ends.
    const preload = join(dataDir, 'loaded-modules.cjs');
    await writeFile(
      preload,
      "process.on('exit', () => require('node:fs').writeFileSync(process.env.LOADED_MODULES, JSON.stringify(Object.keys(require.cache))));",
    );
    const lazy =
      /\/node_modules\/(@kubernetes\/client-node|pg|playwright-core|ioredis|@aws-sdk\/[^/]+|@modelcontextprotocol\/sdk)\//;
    const servers = [
      { command: 'agent-server', ready: /No default LLM/ },
      { command: 'serve', ready: /API documentation at/ },
    ];
    for (const { command, ready } of servers) {
      const list = join(dataDir, `loaded-by-${command}.json`);
      const started = await startServer(
        BUNDLE,
        [command, '--port', '0', '--data-dir', join(dataDir, `loaded-${command}`)],
        { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${preload}`, LOADED_MODULES: list },
        ready,
      );
      const output = 'child' in started ? started.output : () => started.output;
      expect(await stopServer(started), `${command}: ${output()}`).toBe(0);
      const loaded = JSON.parse(await readFile(list, 'utf8')) as string[];
      expect(
        loaded.filter((path) => lazy.test(path)),
        command,
      ).toEqual([]);
      // The check reads what it should: the packages loaded at start.
      expect(
        loaded.some((path) => path.includes('/node_modules/pino/')),
        command,
      ).toBe(true);
    }
  }, 180_000);

  it('starts from the V8 code cache the build made (parsing and compiling the bundle is skipped), unless source maps are on', async () => {
    const run = async (nodeFlags: string[]) =>
      (
        await exec(process.execPath, [...nodeFlags, BUNDLE, '--help'], {
          env: { ...process.env, BOSUN_CODE_CACHE_REPORT: '1' },
        })
      ).stderr;
    expect(await run([])).toBe('code cache: used\n');
    // With source maps, Node's own loader compiles the bundle: stack traces point into the sources.
    expect(await run(['--enable-source-maps'])).toBe('');
  });

  it("starts what loads from node_modules from Node's compile cache the build made (Node 22 and later)", async (context) => {
    if (!('enableCompileCache' in Module)) context.skip(`Node ${process.version} has no compile cache`);
    const started = await startServer(
      BUNDLE,
      ['agent-server', '--port', '0', '--data-dir', join(dataDir, 'compile-cache')],
      { NODE_DEBUG_NATIVE: 'COMPILE_CACHE' },
      /Default model|No default LLM/,
    );
    if (!('url' in started)) throw new Error(started.output);
    expect(await stopServer(started)).toBe(0);
    expect(started.output()).toMatch(/CommonJS \S+\/node_modules\/pino\/lib\/proto\.js was accepted/);
  });

  it('starts its agent server on the validators the build compiled ahead of time: none is compiled at start', async () => {
    const started = await startServer(
      BUNDLE,
      ['agent-server', '--port', '0', '--data-dir', join(dataDir, 'validators')],
      { BOSUN_VALIDATORS_REPORT: '1' },
      /Default model|No default LLM/,
    );
    if (!('url' in started)) throw new Error(started.output);
    // The start's warm-up validated a start, a message and events: each with a validator of the build's.
    expect(await stopServer(started)).toBe(0);
    expect(started.output()).toMatch(/validators: [1-9]\d* precompiled, 0 compiled/);
  });

  it('serves the app server (bosun serve, what npm start runs): ready, the home page, and a clean stop', async () => {
    const started = await startServer(
      BUNDLE,
      ['serve', '--port', '0', '--data-dir', join(dataDir, 'app')],
      // Redis too: ioredis stays out of the bundle and loads from node_modules only when configured.
      { BOSUN_LOG_LEVEL: 'warn', BOSUN_REDIS_URL: process.env.BOSUN_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' },
      /API documentation at/,
    );
    if (!('url' in started)) throw new Error(started.output);
    expect(started.output()).toMatch(/^Bosun app server listening on http:\/\/127\.0\.0\.1:\d+ /);
    expect(await (await fetch(`${started.url}/ready`)).json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', cache: 'ok', objects: 'ok', sandboxes: 'ok' },
      sandboxes: { backend: 'local', isolated: true },
    });
    const home = await fetch(`${started.url}/`);
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
    // The web application's page, or (where it is not built) the page that says how to build it.
    expect(await home.text()).toContain('<title>Bosun</title>');
    const readme = await fetch(`${started.url}/README.md`);
    expect(readme.status).toBe(200);
    expect(await readme.text()).toContain('npm start');
    const document = (await (await fetch(`${started.url}/openapi.json`)).json()) as { info: { title: string } };
    expect(document.info.title).toBe('Bosun App Server');
    expect(await stopServer(started)).toBe(0);
  }, 180_000);

  it('serves the agent server: health, the OpenAPI document, the docs page, validation, a conversation and its stream', async () => {
    const url = await startAgentServer();
    expect((await fetch(`${url}/ready`)).status).toBe(200);
    const document = (await (await fetch(`${url}/openapi.json`)).json()) as { openapi: string; info: object };
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toMatchObject({ title: 'Agent Server', version: '0.1.0' });
    expect((await fetch(`${url}/docs/`)).status).toBe(200);

    const post = (body: unknown) =>
      fetch(`${url}/api/conversations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const invalid = await post({ agent: { llm: { model: 'm' }, bogus: 1 }, workspace: { working_dir: dataDir } });
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toEqual({
      detail: [{ loc: ['body', 'agent', 'bogus'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }],
    });
    const created = await post({
      agent: { llm: { model: 'm' }, tools: [{ name: 'terminal' }] },
      workspace: { working_dir: join(dataDir, 'workspace') },
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };

    const socket = new WebSocket(`${url.replace('http', 'ws')}/sockets/events/${id}`);
    const first = await new Promise<{ kind: string; key: string }>((resolve, reject) => {
      socket.once('message', (data) => resolve(JSON.parse(String(data))));
      socket.once('error', reject);
    });
    socket.close();
    expect(first).toMatchObject({ kind: 'ConversationStateUpdateEvent', key: 'full_state' });
  }, 180_000);

  it('says its version', async () => {
    const { stdout } = await exec(process.execPath, [BUNDLE, '--version']);
    expect(stdout).toMatch(/^bosun \d+\.\d+\.\d+ \(Node\.js v\d+\.\d+\.\d+\)\n$/);
  });

  it('runs the offline demo end to end', async () => {
    const { stdout } = await exec(process.execPath, [BUNDLE, 'demo'], { cwd: ROOT, timeout: 60_000 });
    expect(stdout).toContain('DEMO: the model below is SCRIPTED');
    expect(stdout).toMatch(/--\s+finished/);
  }, 180_000);
});
