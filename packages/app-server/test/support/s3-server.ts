import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** s3rver accepts requests signed with these, and refuses others as S3 does. */
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface TestS3Server {
  /** `http://127.0.0.1:PORT` */
  endpoint: string;
  /** A bucket that exists, empty at start. */
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Stops the server and removes what it stored. */
  stop(): Promise<void>;
}

/**
 * Starts s3rver and prints its port. It runs in a process of its own, with OpenSSL's legacy provider: s3rver makes
 * list continuation tokens with DES, which OpenSSL 3 leaves out, and fails any listing longer than one page without.
 */
const SERVER_SCRIPT = `
const S3rver = require(process.env.S3RVER_PATH);
const server = new S3rver({
  address: '127.0.0.1', port: 0, silent: true, directory: process.env.S3RVER_DIRECTORY,
  configureBuckets: [{ name: process.env.S3RVER_BUCKET, configs: [] }],
});
server.run().then(({ port }) => console.log(JSON.stringify({ port })));
process.on('SIGTERM', () => server.close().finally(() => process.exit(0)));
// Its standard input closes when the test process ends, however it ends: the server must not outlive it.
process.stdin.on('end', () => process.exit(0)).resume();
`;

/** An S3-protocol server (s3rver) on a free loopback port, storing into a fresh temporary directory. */
export async function startS3Server(bucket = 'bosun-test'): Promise<TestS3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'bosun-s3rver-'));
  const child = spawn(process.execPath, ['--openssl-legacy-provider', '-e', SERVER_SCRIPT], {
    env: {
      ...process.env,
      S3RVER_PATH: createRequire(import.meta.url).resolve('s3rver'),
      S3RVER_DIRECTORY: directory,
      S3RVER_BUCKET: bucket,
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const port = await portOf(child);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    ...CREDENTIALS,
    async stop() {
      if (child.exitCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** The port the server announces on its first line, or its failure to start. */
async function portOf(child: ChildProcess): Promise<number> {
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`s3rver exited with ${code} before listening`);
  });
  const announced = once(lines, 'line').then(([line]) => (JSON.parse(line as string) as { port: number }).port);
  try {
    return await Promise.race([announced, exited]);
  } finally {
    lines.close();
    exited.catch(() => undefined);
  }
}
