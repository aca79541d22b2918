import { chmod, rm } from 'node:fs/promises';
import { type Server, type Socket, connect, createServer } from 'node:net';
import { join } from 'node:path';
import type { EgressRoute } from './bwrap-args.ts';

/** Pipes two sockets into each other; either one's end or error ends both. */
function splice(a: Socket, b: Socket): void {
  a.pipe(b);
  b.pipe(a);
  const end = () => {
    a.destroy();
    b.destroy();
  };
  a.on('error', end).on('close', end);
  b.on('error', end).on('close', end);
}

function listening(server: Server, listen: () => void): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    listen();
    server.once('listening', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closed(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * A port on the host's loopback that leads to a sandbox's agent server, which listens in the sandbox's own network
 * namespace: each connection is passed to the Unix socket the sandbox's bridge listens on. The socket is reached
 * through the sandbox's own root (`/proc/<pid>/root/...`), so a symlink the sandbox puts there resolves inside the
 * sandbox and can never point this process at a socket of the host.
 */
export class AgentBridge {
  private constructor(
    private readonly server: Server,
    private readonly sockets: Set<Socket>,
    readonly url: string,
    /** The agent server's socket, for the runtime's own requests (which are no use of the sandbox). */
    readonly socketPath: string,
  ) {}

  /** When bytes last went through, either way (ms since the epoch): the runtime's view of a sandbox's use. */
  lastTrafficAt = Date.now();

  static async open(socketPath: string): Promise<AgentBridge> {
    const sockets = new Set<Socket>();
    const server = createServer((inbound) => {
      const outbound = connect(socketPath);
      for (const socket of [inbound, outbound]) socket.on('data', () => bridge.touch());
      sockets.add(inbound).add(outbound);
      inbound.once('close', () => sockets.delete(inbound));
      outbound.once('close', () => sockets.delete(outbound));
      splice(inbound, outbound);
    });
    await listening(server, () => server.listen(0, '127.0.0.1'));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('the agent bridge has no port');
    const bridge = new AgentBridge(server, sockets, `http://127.0.0.1:${address.port}`, socketPath);
    return bridge;
  }

  private touch(): void {
    this.lastTrafficAt = Date.now();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await closed(this.server);
  }
}

/**
 * The sandbox's way out under an allow-list: one Unix socket per allowed `host:port` in its egress directory
 * (which it sees read-only), each connection forwarded to exactly that host and port. Names are resolved here, on
 * the host; the sandbox has no route anywhere else.
 */
export class EgressForwards {
  private constructor(
    private readonly servers: Server[],
    private readonly sockets: Set<Socket>,
  ) {}

  static async open(dir: string, routes: readonly EgressRoute[]): Promise<EgressForwards> {
    const sockets = new Set<Socket>();
    const servers: Server[] = [];
    const forwards = new EgressForwards(servers, sockets);
    try {
      for (const route of routes) {
        const server = createServer((inbound) => {
          const outbound = connect({ host: route.host, port: route.port });
          for (const socket of [inbound, outbound]) {
            sockets.add(socket);
            socket.once('close', () => sockets.delete(socket));
          }
          splice(inbound, outbound);
        });
        const path = join(dir, route.socket);
        // A socket file left by an earlier run of the sandbox (or of a runtime that was killed) is in the way.
        await rm(path, { force: true });
        await listening(server, () => server.listen(path));
        servers.push(server);
        // The sandbox runs as another user: it may connect, and nothing more (the directory is read-only to it).
        await chmod(path, 0o666);
      }
    } catch (error) {
      await forwards.close();
      throw error;
    }
    return forwards;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await Promise.all(this.servers.map(closed));
  }
}
