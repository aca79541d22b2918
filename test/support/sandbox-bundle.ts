import { fileURLToPath } from 'node:url';

/** The Bosun installation (this checkout): sandboxes see it read-only. */
export const INSTALLATION = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Bosun in one file (`scripts/build.mjs`, as `npm start` runs it), built once per test run by the global setup
 * (test/support/sandbox-bundle-setup.ts, at the root) into the installation's `dist/`, which sandboxes see.
 */
export const SANDBOX_BUNDLE = fileURLToPath(new URL('../../packages/cli/dist/test/bosun.mjs', import.meta.url));

/** What starts a test sandbox's agent server: this Node and the bundle. */
export const SANDBOX_COMMAND = [process.execPath, SANDBOX_BUNDLE];
