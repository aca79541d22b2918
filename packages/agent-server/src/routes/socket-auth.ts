import { parseJson } from '@bosun/http';
import { CLOSE_AUTH_FAILED } from '@bosun/protocol';
import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { SESSION_KEY_HEADER, isValidSessionKey } from '../http/auth.ts';

const AUTH_FRAME_TIMEOUT_MS = 10_000;
/** Why a socket that brought no key is closed: what it lacked, where a key goes (a close reason: under 123 bytes). */
const NO_KEY = 'Authentication failed: no key (?session_api_key=, X-Session-API-Key, or a first frame {"type":"auth"})';
const NOT_AUTH_FRAME = 'Authentication failed: the first frame must be {"type":"auth","session_api_key":"..."}';

/**
 * A socket's session key, as OpenHands takes it: `?session_api_key=` or the header (checked at once), else a first
 * frame `{"type":"auth","session_api_key":...}` within 10 s. `start` runs once the client is known; a wrong or
 * missing key closes the socket with 4001, the reason saying which. A socket without a key is held for its first
 * frame, not refused at once: OpenHands' web client and SDK send nothing at the handshake and their key in that
 * frame right after it.
 */
export function authenticateSocket(
  socket: WebSocket,
  request: FastifyRequest,
  keys: string[],
  start: () => void,
): void {
  const { session_api_key: inQuery } = request.query as { session_api_key?: string };
  const offered = inQuery ?? request.headers[SESSION_KEY_HEADER];
  if (keys.length === 0 || offered !== undefined) {
    if (isValidSessionKey(keys, offered)) start();
    else socket.close(CLOSE_AUTH_FAILED, 'Authentication failed');
    return;
  }
  const timer = setTimeout(() => socket.close(CLOSE_AUTH_FAILED, NO_KEY), AUTH_FRAME_TIMEOUT_MS);
  socket.once('close', () => clearTimeout(timer));
  socket.once('message', (data) => {
    clearTimeout(timer);
    const frame = parseJson(data.toString());
    if (!isAuthFrame(frame) || typeof frame.session_api_key !== 'string') {
      return socket.close(CLOSE_AUTH_FAILED, NOT_AUTH_FRAME);
    }
    if (!isValidSessionKey(keys, frame.session_api_key))
      return socket.close(CLOSE_AUTH_FAILED, 'Authentication failed');
    start();
  });
}

/** A later auth frame (clients that send the key in the header and in a frame) is ignored. */
export function isAuthFrame(frame: unknown): frame is { type: 'auth'; session_api_key?: unknown } {
  return !!frame && typeof frame === 'object' && (frame as { type?: unknown }).type === 'auth';
}
