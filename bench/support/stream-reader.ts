/**
 * Reads an HTTP download or an events socket's frames in a worker thread, so that the reading client does not share
 * the event loop (and the core) of an app server running in the benchmark's own process: what is measured is
 * then the servers, as with a browser in its own process.
 */
import { Worker } from 'node:worker_threads';

export type ReadTask =
  /** A GET of `url` read to its end without keeping it. */
  | { kind: 'download'; url: string; headers: Record<string, string> }
  /** A WebSocket at `url` read until `frames` frames came. */
  | { kind: 'frames'; url: string; headers: Record<string, string>; frames: number };

/** What was read (bytes or frames) and in how many seconds (from the request to the last byte or frame). */
export interface ReadResult {
  count: number;
  seconds: number;
}

/** The worker, plain CommonJS: Node 20 does not run the benchmark's TypeScript loader (`--import tsx`) in workers. */
const WORKER_SOURCE = `
const { parentPort, workerData: task } = require('node:worker_threads');
const at = process.hrtime.bigint();
const seconds = () => Number(process.hrtime.bigint() - at) / 1e9;
const done = (answer) => parentPort.postMessage(answer);
const failed = (error) => done({ error: error.message });
if (task.kind === 'download') {
  require('node:http').get(task.url, { headers: task.headers }, (response) => {
    if (response.statusCode !== 200) return done({ error: 'download: HTTP ' + response.statusCode });
    let count = 0;
    response.on('data', (chunk) => { count += chunk.length; });
    response.on('end', () => done({ count, seconds: seconds() }));
    response.on('error', failed);
  }).on('error', failed);
} else {
  const { WebSocket } = require(task.ws);
  const socket = new WebSocket(task.url, { headers: task.headers });
  let count = 0;
  socket.on('message', () => {
    if (++count < task.frames) return;
    done({ count, seconds: seconds() });
    socket.close();
  });
  socket.on('error', failed);
  socket.on('close', (code) => {
    if (count < task.frames) done({ error: 'socket closed (' + code + ') after ' + count + ' of ' + task.frames + ' frames' });
  });
}
`;

export function readInWorker(task: ReadTask): Promise<ReadResult> {
  const ws = import.meta.resolve('ws');
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { ...task, ws: new URL(ws).pathname } });
    worker.once('message', (answer: ReadResult | { error: string }) => {
      if ('error' in answer) reject(new Error(answer.error));
      else resolve(answer);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}
