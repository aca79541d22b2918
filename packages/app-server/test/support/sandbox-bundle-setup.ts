import { execFile } from 'node:child_process';
import { rename } from 'node:fs/promises';
import { promisify } from 'node:util';
import { INSTALLATION, SANDBOX_BUNDLE } from '../sandboxes/bundle.ts';

/**
 * Vitest's global setup: Bosun bundled once per run (`scripts/build.mjs`, about 4 s) for the app server tests'
 * sandboxes to run. An agent server from the TypeScript sources compiles them at every start (in an isolated
 * sandbox, into its fresh `/tmp`): seconds per sandbox, the bundle a fraction of that.
 */
export default async function setup(): Promise<void> {
  const building = `${SANDBOX_BUNDLE}.${process.pid}.mjs`;
  await promisify(execFile)(process.execPath, ['scripts/build.mjs', building], { cwd: INSTALLATION });
  // Whole or not at all, should another run read it meanwhile.
  await rename(building, SANDBOX_BUNDLE);
  await rename(`${building}.map`, `${SANDBOX_BUNDLE}.map`);
}
