import { readFile, readdir } from 'node:fs/promises';

/**
 * Finding and killing every process a shell session started, so closing a terminal leaks nothing: background
 * jobs run in process groups of their own (job control), so killing the shell's group is not enough.
 */

interface ProcessInfo {
  pid: number;
  ppid: number;
  session: number;
}

/** Live processes from /proc (Linux); undefined where /proc is not available. */
async function listProcesses(): Promise<ProcessInfo[] | undefined> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return undefined;
  }
  const stats = await Promise.all(
    entries.filter((name) => /^\d+$/.test(name)).map((name) => readFile(`/proc/${name}/stat`, 'utf8').catch(() => '')),
  );
  const processes: ProcessInfo[] = [];
  for (const stat of stats) {
    // `pid (comm) state ppid pgrp session ...`; comm may contain spaces and parentheses.
    const close = stat.lastIndexOf(')');
    if (close < 0) continue;
    const [state, ppid, , session] = stat.slice(close + 2).split(' ');
    if (state === 'Z' || state === 'X') continue;
    processes.push({ pid: Number.parseInt(stat, 10), ppid: Number(ppid), session: Number(session) });
  }
  return processes;
}

/** The processes of the session led by `leader` and all their descendants (the leader included). */
export async function sessionProcesses(leader: number): Promise<number[] | undefined> {
  const processes = await listProcesses();
  if (!processes) return undefined;
  const found = new Set<number>();
  for (const { pid, session } of processes) if (pid === leader || session === leader) found.add(pid);
  let grew = true;
  while (grew) {
    grew = false;
    for (const { pid, ppid } of processes) {
      if (!found.has(pid) && found.has(ppid)) {
        found.add(pid);
        grew = true;
      }
    }
  }
  found.delete(process.pid);
  found.delete(1);
  return [...found];
}

/** Sends SIGKILL to the session led by `leader` and everything it started, until nothing is left. */
export async function killSession(leader: number): Promise<void> {
  for (let round = 0; round < 5; round++) {
    const pids = await sessionProcesses(leader);
    if (!pids) {
      // No /proc: the best we can do is the shell's process group and the shell itself.
      signal(-leader);
      signal(leader);
      return;
    }
    if (pids.length === 0) return;
    for (const pid of pids) signal(pid);
  }
}

function signal(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** True while `pid` runs (a zombie, dead but not yet reaped, counts as gone). */
export async function isRunning(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    try {
      process.kill(pid, 0);
      return process.platform !== 'linux';
    } catch {
      return false;
    }
  }
}
