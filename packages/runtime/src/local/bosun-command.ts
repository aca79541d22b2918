import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Bosun command line this process runs (`bosun.js` from the sources, or the `bosun.mjs` bundle). */
const BOSUN_ENTRY = /^bosun(\.m?js)?$/;
/** From `src/local/` here to the CLI's entry in the sources (when the runtime is embedded, e.g. in tests). */
const SOURCE_ENTRY = fileURLToPath(new URL('../../../cli/bin/bosun.js', import.meta.url));

/** How a sandbox runs the same Bosun as this process: the command and what of the host it needs to see. */
export interface BosunCommand {
  /** The command before `agent-server` and its flags. */
  command: string[];
  /** The Bosun installation (the directory holding its `node_modules`) and the Node binary. */
  installation: string[];
  /** What in the installation is not Bosun's code: a data directory (`npm start`'s default), git, env files. */
  hidden: string[];
}

const NOT_CODE = ['.bosun', '.git', '.env', '.env.local', '.npmrc'];

/** This Node and the Bosun entry it was started with, or the CLI in the sources. */
export function ownBosunCommand(): BosunCommand {
  const entry = bosunEntry();
  const installation = installationOf(entry);
  const node = realpathSync(process.execPath);
  return {
    command: [node, entry],
    installation: [installation, node],
    hidden: NOT_CODE.map((name) => join(installation, name)),
  };
}

/**
 * The entry's real path: `npx bosun` runs it through a link in npm's cache under the user's home (`/root/.npm/_npx/
 * .../node_modules/.bin/bosun`), which a sandbox's user cannot reach, and whose directories are not Bosun's.
 */
function bosunEntry(): string {
  const running = process.argv[1];
  if (running && BOSUN_ENTRY.test(basename(running)) && existsSync(running)) return realpathSync(running);
  if (existsSync(SOURCE_ENTRY)) return SOURCE_ENTRY;
  throw new Error('cannot find the bosun command to start sandboxes with: give the runtime a command');
}

/**
 * The highest directory above `entry` with a `package.json` and a `node_modules`: the installation, whose
 * workspaces' own `node_modules` are inside it.
 */
export function installationOf(entry: string): string {
  let found = dirname(entry);
  for (let dir = dirname(entry); dirname(dir) !== dir; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules')) && existsSync(join(dir, 'package.json'))) found = dir;
  }
  return found;
}
