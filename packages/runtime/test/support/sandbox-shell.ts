import { type Server, connect, createServer } from 'node:net';
import type { Runtime, RuntimeSandbox } from '@bosun/runtime';

export interface ShellResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command` inside the sandbox through its own agent server (`/api/bash/execute_bash_command`). */
export async function sh(sandbox: RuntimeSandbox, command: string): Promise<ShellResult> {
  if (!sandbox.url || !sandbox.sessionApiKey) throw new Error(`sandbox ${sandbox.id} is ${sandbox.status}`);
  const response = await fetch(`${sandbox.url}/api/bash/execute_bash_command`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-session-api-key': sandbox.sessionApiKey },
    body: JSON.stringify({ command, timeout: 20 }),
  });
  if (!response.ok) throw new Error(`bash answered ${response.status}: ${await response.text()}`);
  const output = (await response.json()) as { exit_code: number | null; stdout: string | null; stderr: string | null };
  return { exitCode: output.exit_code, stdout: output.stdout ?? '', stderr: output.stderr ?? '' };
}

/** A Node one-liner that prints CONNECTED or REFUSED <code> for a TCP connection to host:port. */
export function connectProbe(host: string, port: number): string {
  const script = [
    `const s=require('net').connect(${port},'${host}');`,
    "s.on('connect',()=>{console.log('CONNECTED');process.exit(0)});",
    "s.on('error',e=>{console.log('REFUSED',e.code);process.exit(0)});",
    "setTimeout(()=>{console.log('REFUSED timeout');process.exit(0)},3000)",
  ].join('');
  return `${process.execPath} -e "${script}"`;
}

/** Whether this process (on the host) can open a TCP connection to host:port. */
export function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A TCP server on the host's loopback (on `port`, else a free one) that answers every connection with `reply`. */
export async function replyServer(reply: string, port = 0): Promise<Server & { port: number }> {
  // A probe that hangs up at once resets the connection: not an error of the server's.
  const server = createServer((socket) => socket.on('error', () => {}).end(reply));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return Object.assign(server, { port: address.port });
}

/** A reply server on a free port below 1024 (the test runs as root). */
export async function lowPortReplyServer(reply: string): Promise<Server & { port: number }> {
  for (let port = 900 + Math.floor(Math.random() * 100); port < 1024; port++) {
    const server = await replyServer(reply, port).catch(() => undefined);
    if (server) return server;
  }
  throw new Error('no free port below 1024');
}

/** Waits until the sandbox's status satisfies `done` (its exit is noticed asynchronously), within `timeoutMs`. */
export async function untilStatus(
  runtime: Runtime,
  id: string,
  done: (sandbox: RuntimeSandbox | undefined) => boolean,
  timeoutMs = 15_000,
): Promise<RuntimeSandbox | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const sandbox = await runtime.get(id);
    if (done(sandbox)) return sandbox;
    if (Date.now() > deadline) throw new Error(`sandbox ${id} is still ${sandbox?.status}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
