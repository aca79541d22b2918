import { execFile } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { BosunCommand } from './bosun-command.ts';
import { processAlive } from './process-alive.ts';

/** The CLI's entry in the TypeScript sources (what `npx bosun` runs in a checkout). */
const SOURCE_ENTRY = /[\\/]packages[\\/]cli[\\/]bin[\\/]bosun\.js$/;
/** Bundles of running processes, under the installation's `packages/cli/dist` (sandboxes see the installation). */
const BUNDLE_DIR = /^sandbox-(\d+)-/;
/** The one bundle of this process (every runtime it opens shares it). */
let built: Promise<string[]> | undefined;

/**
 * What sandboxes run of this Bosun: the bundle, never the TypeScript sources. Run from the sources (`npx bosun
 * serve` in a checkout), every sandbox's agent server would compile them at its start, in its fresh `/tmp`
 * (seconds each); so the bundle `npm start` runs is built once per process (`scripts/build.mjs`, a few seconds) into a
 * directory of this process's own, removed when it exits. When it cannot be built, the sources are run, and said.
 */
export async function sandboxBosunCommand(
  own: BosunCommand,
  logger?: { warn(message: string): void },
): Promise<string[]> {
  const [node, entry] = own.command;
  const installation = own.installation[0];
  if (!node || !entry || !installation || !SOURCE_ENTRY.test(entry)) return own.command;
  built ??= build(own, node, installation, logger);
  return built;
}

async function build(
  own: BosunCommand,
  node: string,
  installation: string,
  logger?: { warn(message: string): void },
): Promise<string[]> {
  const script = join(installation, 'scripts', 'build.mjs');
  if (!existsSync(script)) return own.command;
  const parent = join(installation, 'packages', 'cli', 'dist');
  await mkdir(parent, { recursive: true });
  await removeLeftBehind(parent);
  const dir = join(parent, `sandbox-${process.pid}-${Date.now()}`);
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  try {
    await promisify(execFile)(process.execPath, [script, dir], { cwd: installation });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    const why = (error as Error).message.split('\n')[0];
    logger?.warn(`sandboxes run Bosun from its sources (compiled at each start): its bundle was not built: ${why}`);
    return own.command;
  }
  return [node, join(dir, 'bosun.mjs'), ...own.command.slice(2)];
}

/** Bundles of processes that are gone (killed before they could remove them). */
async function removeLeftBehind(parent: string): Promise<void> {
  for (const name of await readdir(parent).catch(() => [] as string[])) {
    const pid = Number(BUNDLE_DIR.exec(name)?.[1]);
    if (!pid || pid === process.pid || processAlive(pid)) continue;
    await rm(join(parent, name), { recursive: true, force: true });
  }
}
