import { type RawData, WebSocket } from 'ws';

/** Close codes a peer may send on the wire; for the others (reserved, e.g. 1006) the other side gets a plain close. */
const SENDABLE = (code: number) =>
  code === 1000 ||
  (code >= 3000 && code <= 4999) ||
  (code >= 1001 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006);

/**
 * Relays `client` (accepted by the app) to a WebSocket opened at `upstream` with `headers`, both ways: each message
 * as it came (text or binary), what the client sends before the upstream opens queued, and a close on either side
 * closing the other with its code and reason. An upstream that cannot be reached closes the client with 1011.
 */
export function pipeSocket(client: WebSocket, upstream: string, headers: Record<string, string>): void {
  const server = new WebSocket(upstream, { headers });
  const queued: [RawData, boolean][] = [];
  client.on('message', (data, isBinary) => {
    if (server.readyState === WebSocket.OPEN) server.send(data, { binary: isBinary });
    else queued.push([data, isBinary]);
  });
  server.on('open', () => {
    for (const [data, isBinary] of queued.splice(0)) server.send(data, { binary: isBinary });
  });
  server.on('message', (data, isBinary) => {
    if (client.readyState === WebSocket.OPEN) client.send(data, { binary: isBinary });
  });
  server.on('close', (code, reason) => closeWith(client, code, reason));
  client.on('close', (code, reason) => closeWith(server, code, reason));
  server.on('error', () => closeWith(client, 1011, Buffer.from('The agent server did not answer')));
  client.on('error', () => server.terminate());
}

function closeWith(socket: WebSocket, code: number, reason: Buffer): void {
  if (socket.readyState === WebSocket.CLOSED || socket.readyState === WebSocket.CLOSING) return;
  if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
  else if (SENDABLE(code)) socket.close(code, reason);
  else socket.close();
}
