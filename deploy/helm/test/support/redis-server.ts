import { spawn } from 'node:child_process';
import { closedPort } from '../../../../packages/cli/test/install-support.ts';

export interface RedisServer {
  port: number;
  stop(): Promise<void>;
}

/**
 * A Redis server of its own (the machine's redis-server, on a free loopback port, working in `dir`, nothing saved)
 * that asks `password`, as the chart's external Redis does: a client given another password, or none, is refused.
 * The configuration goes on standard input, the password never on a command line.
 */
export async function startRedis(password: string, dir: string): Promise<RedisServer> {
  const port = await closedPort();
  const child = spawn('redis-server', ['-'], { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end(`port ${port}\nbind 127.0.0.1\nrequirepass ${password}\nsave ""\nappendonly no\ndir ${dir}\n`);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const early = () => reject(new Error(`redis-server exited before it was ready:\n${output}`));
    child.once('exit', early);
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (!output.includes('Ready to accept connections')) return;
        child.off('exit', early);
        resolve();
      });
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    port,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
