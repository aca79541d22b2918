import { execFile } from 'node:child_process';
import { cp, mkdir, readFile, rm, rmdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './paths.ts';

const LOCK = join(tmpdir(), `bosun-web-build-${Buffer.from(ROOT).toString('hex').slice(-24)}.lock`);
const STALE_MS = 5 * 60_000;

/**
 * `node scripts/build-web.mjs` (which skips when `packages/web/dist` is newer than its sources), once at a time
 * across the test files running in parallel: a file that finds another building waits for its lock, then finds the
 * build up to date. A lock left by a killed run is taken over once it is older than any build takes.
 */
export async function buildWebOnce(): Promise<void> {
  const deadline = Date.now() + 4 * 60_000;
  for (;;) {
    try {
      await mkdir(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const since = await stat(LOCK).then(
        (info) => Date.now() - info.mtimeMs,
        () => 0,
      );
      if (since > STALE_MS) await rmdir(LOCK).catch(() => undefined);
      if (Date.now() > deadline) throw new Error(`the web build lock ${LOCK} was held for too long`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    await promisify(execFile)(process.execPath, ['scripts/build-web.mjs'], { cwd: ROOT, timeout: 4 * 60_000 });
  } finally {
    await rmdir(LOCK).catch(() => undefined);
  }
}

/**
 * A copy of the web build as it is now, in `dir`, once every asset its `index.html` names is there (another person
 * building the shared tree meanwhile empties `dist/assets` for a moment): the pages of a test file are served
 * from it when the server's own copy has gone (see `servePinnedAssets`). Answers its `index.html`.
 */
export async function pinWebBuild(dir: string): Promise<string> {
  const dist = join(ROOT, 'packages', 'web', 'dist');
  for (let attempt = 0; ; attempt++) {
    await rm(dir, { recursive: true, force: true });
    await cp(dist, dir, { recursive: true }).catch(() => undefined);
    const page = await readFile(join(dir, 'index.html'), 'utf8').catch(() => '');
    const assets = [...page.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((match) => match[1] as string);
    const present = await Promise.all(
      assets.map((asset) =>
        stat(join(dir, asset)).then(
          () => true,
          () => false,
        ),
      ),
    );
    if (page && present.every(Boolean)) return page;
    if (attempt >= 3) throw new Error(`the web build in ${dist} stays incomplete (is a build failing?)`);
    await buildWebOnce();
  }
}
