import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The Bosun installation (this checkout): sandboxes see it read-only. */
export const INSTALLATION = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * Bosun bundled into one file (`scripts/build.mjs`, as `npm start` runs it), built once per test file into the
 * installation's `dist/` (which sandboxes see): an agent server from the TypeScript sources under bubblewrap
 * compiles them again in the sandbox's fresh `/tmp` at every start (seconds each); the bundle starts in a fraction.
 * Answers the command before `agent-server`, and how to remove the bundle.
 */
export async function sandboxBundle(): Promise<{ command: string[]; remove(): Promise<void> }> {
  const file = fileURLToPath(new URL(`../../../cli/dist/sandbox-test-${process.pid}.mjs`, import.meta.url));
  await promisify(execFile)(process.execPath, ['scripts/build.mjs', file], { cwd: INSTALLATION });
  return {
    command: [process.execPath, file],
    remove: async () => {
      await rm(file, { force: true });
      await rm(`${file}.map`, { force: true });
    },
  };
}
