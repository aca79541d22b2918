// The bundle's V8 code cache: what an agent server compiles from the bundle until it is ready (what every
// sandbox start compiles), written when that server ends: by Node's compile cache (Node 22 and later) or by the
// bundle's entry (Node 20; see bundle-entry.mjs). A first start records the validators it compiled
// (`bosun.cjs.<sha>.validators.cjs`: the build's own, compiled ahead of time); the second, which writes the caches, uses them.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const CACHE = /^bosun\.cjs\.[0-9a-f]{16}\.cache$/;
const VALIDATORS = /^bosun\.cjs\.[0-9a-f]{16}\.validators\.cjs$/;
const LISTENING = /listening on (http:\/\/\S+)/;
const WITHIN_MS = 30_000;

/** Starts the agent server of the bundle whose entry is `entry` until it is ready, stops it; warns on failure. */
export async function writeCodeCache(entry) {
  const dir = dirname(entry);
  const compileCache = join(dir, 'compile-cache');
  await rm(compileCache, { recursive: true, force: true });
  for (const name of await readdir(dir)) {
    if (CACHE.test(name) || VALIDATORS.test(name)) await rm(join(dir, name), { force: true });
  }
  const home = await mkdtemp(join(tmpdir(), 'bosun-code-cache-'));
  try {
    await startAndStop(entry, join(home, 'validators'), { BOSUN_VALIDATORS_WRITE: '1' }).catch((error) => {
      process.stderr.write(`build: no precompiled validators (starts compile them): ${error.message}\n`);
    });
    await startAndStop(entry, home, { BOSUN_CODE_CACHE_WRITE: '1' });
    const written =
      (await filesUnder(compileCache)).length > 0 || (await readdir(dir)).some((name) => CACHE.test(name));
    if (!written) throw new Error('no cache written');
    // Node writes its cache for its user alone; the sandboxes that run this bundle are another user.
    await readableByAll(compileCache);
  } catch (error) {
    process.stderr.write(`build: no code cache (starts compile the whole bundle): ${error.message}\n`);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

async function startAndStop(entry, home, asked) {
  await mkdir(home, { recursive: true });
  // Nothing of this shell's settings: the server on its defaults, its key given so that none is generated.
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    BOSUN_LOG_LEVEL: 'warn',
    BOSUN_SECRETS_KEY: randomBytes(32).toString('base64'),
    ...asked,
  };
  const child = spawn(
    process.execPath,
    [entry, 'agent-server', '--host', '127.0.0.1', '--port', '0', '--data-dir', join(home, 'data')],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const timer = setTimeout(() => child.kill('SIGKILL'), WITHIN_MS);
  try {
    let output = '';
    const url = await new Promise((resolve, reject) => {
      const onData = (chunk) => {
        output += chunk;
        const match = LISTENING.exec(output);
        if (match) resolve(match[1]);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      exited.then(() => reject(new Error(`the agent server ended before listening:\n${output}`)));
    });
    while (!(await isReady(url))) await new Promise((resolve) => setTimeout(resolve, 10));
    child.kill('SIGTERM');
    const { code, signal } = await exited;
    if (code !== 0) throw new Error(`the agent server ended with ${signal ?? `exit code ${code}`}:\n${output}`);
  } finally {
    clearTimeout(timer);
  }
}

function isReady(url) {
  return fetch(`${url}/ready`).then(
    (response) => response.ok,
    () => false,
  );
}

async function filesUnder(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile());
}

async function readableByAll(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  if (entries.length > 0) await chmod(dir, 0o755);
  for (const entry of entries) {
    await chmod(join(entry.parentPath, entry.name), entry.isDirectory() ? 0o755 : 0o644);
  }
}
