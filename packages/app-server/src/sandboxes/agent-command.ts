import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WATCH_PARENT_IMPORT } from './parent-watch.ts';

/** The Bosun command line this process runs (`bosun.js` from the sources, or the `bosun.mjs` bundle). */
const BOSUN_ENTRY = /^bosun(\.m?js)?$/;
/** From `src/sandboxes/` here to the CLI's entry in the sources (when the app is embedded, e.g. in tests). */
const SOURCE_ENTRY = fileURLToPath(new URL('../../../cli/bin/bosun.js', import.meta.url));

/**
 * The command that starts a local sandbox's agent server, before `agent-server` and its flags: `configured` when
 * given, else the same Bosun the app runs (this Node and the entry it was started with, or the CLI in the
 * sources). A Node command gets the parent watch (see parent-watch.ts); another command must stop on its own
 * when its standard input ends.
 */
export function agentServerCommand(configured?: readonly string[]): string[] {
  const command = configured && configured.length > 0 ? [...configured] : [process.execPath, bosunEntry()];
  const [program = '', ...args] = command;
  if (program !== process.execPath && !/^node(\.exe)?$/.test(basename(program))) return command;
  return [program, '--import', WATCH_PARENT_IMPORT, ...args];
}

function bosunEntry(): string {
  const running = process.argv[1];
  if (running && BOSUN_ENTRY.test(basename(running)) && existsSync(running)) return running;
  if (existsSync(SOURCE_ENTRY)) return SOURCE_ENTRY;
  throw new Error(
    'cannot find the bosun command to start sandboxes with: set sandbox_command (e.g. ["node", "/path/bosun.mjs"])',
  );
}
