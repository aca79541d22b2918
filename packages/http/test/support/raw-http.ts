import { type Socket, connect } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** What came back on a raw connection: its status (0: none), headers, body text and whether it is JSON. */
export interface RawReply {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: unknown;
}

/** A connection to `app` on which bytes are written as given: what no HTTP client would send. */
export async function openRaw(app: FastifyInstance): Promise<Socket> {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  return new Promise((resolve, reject) => {
    const socket = connect(address.port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server sends on `socket` until it closes the connection, read as one HTTP reply. */
export function replyUntilClose(socket: Socket): Promise<RawReply> {
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve) => {
    socket.once('close', () => resolve(parseReply(Buffer.concat(chunks).toString('utf8'))));
  });
}

/** The first HTTP reply in `text`. */
export function parseReply(text: string): RawReply {
  const [head = '', ...bodyParts] = text.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = bodyParts.join('\r\n\r\n');
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, text: body, json };
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
