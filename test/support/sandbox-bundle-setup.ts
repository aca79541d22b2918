import { execFile } from 'node:child_process';
import { rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { INSTALLATION, SANDBOX_BUNDLE } from './sandbox-bundle.ts';

/**
 * Vitest's global setup: Bosun bundled once per run (`scripts/build.mjs`, about 4 s) for the app server tests'
 * sandboxes to run. An agent server from the TypeScript sources compiles them at every start (in an isolated
 * sandbox, into its fresh `/tmp`): seconds per sandbox, the bundle a fraction of that.
 */
export default async function setup(): Promise<void> {
  const built = dirname(SANDBOX_BUNDLE);
  const building = `${built}.${process.pid}`;
  const old = `${built}.${process.pid}.old`;
  await promisify(execFile)(process.execPath, ['scripts/build.mjs', building], { cwd: INSTALLATION });
  // The new build takes the place of the last one at once (a run reading it meanwhile has its files open).
  await rename(built, old).catch(() => undefined);
  await rename(building, built);
  await rm(old, { recursive: true, force: true });
}
