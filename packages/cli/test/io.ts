import { PassThrough, Readable } from 'node:stream';
import { main } from '../src/main.ts';

/** Runs the CLI in-process with captured output. */
export async function runCli(argv: string[], stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (chunk: Buffer) => out.push(chunk));
  stderr.on('data', (chunk: Buffer) => err.push(chunk));
  const code = await main(argv, { stdout, stderr, stdin: Readable.from([stdin]) });
  return { code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() };
}
