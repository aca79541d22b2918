import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Runtime } from '@bosun/runtime';

const run = promisify(execFile);

/**
 * The pid of a sandbox's agent server, found by its data directory (`<root>/<runtime id>/data`) in its command
 * line: a sandbox of an embedded runtime that is not isolated (under bubblewrap, the path is the sandbox's own).
 */
export async function agentPid(runtime: Runtime, sandboxId: string): Promise<number | undefined> {
  const found = await runtime.getBySession(sandboxId);
  if (!found) return undefined;
  const { stdout } = await run('ps', ['-eo', 'pid=,args=']);
  const line = stdout
    .split('\n')
    .find((row) => row.includes(`/sandboxes/${found.id}/data`) && row.includes('agent-server'));
  return line ? Number(line.trim().split(/\s+/)[0]) : undefined;
}

/** The environment of the sandbox's agent server process. */
export async function agentEnvironment(runtime: Runtime, sandboxId: string): Promise<Record<string, string>> {
  const pid = await agentPid(runtime, sandboxId);
  if (pid === undefined) throw new Error(`no agent server process for sandbox ${sandboxId}`);
  const environ = await readFile(`/proc/${pid}/environ`, 'utf8');
  return Object.fromEntries(
    environ.split('\0').flatMap((pair) => {
      const at = pair.indexOf('=');
      return at > 0 ? [[pair.slice(0, at), pair.slice(at + 1)]] : [];
    }),
  );
}

/** Where the sandbox's workspace is on this machine (an embedded runtime over `<dataDir>/sandboxes`). */
export async function sandboxWorkspace(runtime: Runtime, dataDir: string, sandboxId: string): Promise<string> {
  const found = await runtime.getBySession(sandboxId);
  if (!found) throw new Error(`the runtime has no sandbox ${sandboxId}`);
  return join(resolve(dataDir), 'sandboxes', found.id, 'workspace');
}
