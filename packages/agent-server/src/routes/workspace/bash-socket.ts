import { randomUUID } from 'node:crypto';
import { nestsDeeperThan, parseJson, tooDeep } from '@bosun/http';
import { type BashEvent, ExecuteBashRequest, safeParse } from '@bosun/protocol';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { BashEventStore } from '../../bash/event-store.ts';
import type { BashRunner } from '../../bash/runner.ts';
import { authenticateSocket, isAuthFrame } from '../socket-auth.ts';
import { commandOf } from './bash.ts';
import type { WorkspaceBounds } from './workspace-path.ts';

export interface BashSocketDeps {
  bash: BashRunner;
  events: BashEventStore;
  bounds: WorkspaceBounds;
  sessionApiKeys: string[];
}

/** A frame about a client frame that failed (never stored). */
function bashError(code: string, detail: string): string {
  const id = randomUUID().replaceAll('-', '');
  return JSON.stringify({ id, timestamp: new Date().toISOString(), code, detail, kind: 'BashError' });
}

/**
 * `/sockets/bash-events`: every bash event as it is stored (with `resend_mode=all`, the stored ones first, with no
 * gap and no duplicate). A frame the client sends is an `ExecuteBashRequest`, started as by
 * `POST /api/bash/start_bash_command`; a bad one is answered with a `BashError` frame and the socket stays open.
 */
export function bashSocketRoutes(app: FastifyInstance, deps: BashSocketDeps): void {
  app.get('/sockets/bash-events', { websocket: true, schema: { hide: true } }, (socket, request) => {
    const query = request.query as { resend_mode?: string; resend_all?: string };
    const resend = query.resend_mode === 'all' || (query.resend_mode === undefined && query.resend_all === 'true');
    authenticateSocket(socket, request, deps.sessionApiKeys, () => follow(socket, resend, deps));
  });
}

function follow(socket: WebSocket, resend: boolean, deps: BashSocketDeps): void {
  // The replay is read and the subscription made in one synchronous turn: nothing is stored in between.
  if (resend) {
    let page_id: string | undefined;
    do {
      const page = deps.events.search({ sort_order: 'TIMESTAMP', limit: 100, ...(page_id ? { page_id } : {}) });
      for (const event of page?.items ?? []) socket.send(JSON.stringify(event));
      page_id = page?.next_page_id ?? undefined;
    } while (page_id);
  }
  const unsubscribe = deps.bash.subscribe((event: BashEvent) => socket.send(JSON.stringify(event)));
  socket.on('close', unsubscribe);
  socket.on('message', (data) => {
    const frame = parseJson(data.toString());
    if (isAuthFrame(frame)) return;
    const parsed = nestsDeeperThan(frame)
      ? ({ ok: false, errors: [tooDeep([])] } as const)
      : safeParse(ExecuteBashRequest, frame);
    if (!parsed.ok) return socket.send(bashError('ValidationError', JSON.stringify({ detail: parsed.errors })));
    try {
      deps.bash.start(commandOf(parsed.value, deps.bounds, []));
    } catch (error) {
      socket.send(bashError((error as Error).constructor.name, (error as Error).message));
    }
  });
}
