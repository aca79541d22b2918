import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** A post the receiver accepted (answered 200). */
export interface ReceivedPost {
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/**
 * The application's side of the webhooks, for tests: a real HTTP server on loopback that records what it
 * accepts. `failNext` makes it answer errors first; `stop` and `start` take it down and back on the same port.
 */
export class WebhookReceiver {
  /** Posts accepted, in the order they arrived. */
  readonly accepted: ReceivedPost[] = [];
  /** Every post that arrived, accepted or not. */
  attempts = 0;
  /** Statuses to answer before accepting again (consumed one per post). */
  private failures: number[] = [];
  private server: Server | undefined;
  private port = 0;
  private waiters: (() => void)[] = [];
  /** While set, answers wait for it. */
  private held: Promise<void> | undefined;
  /** Posts that arrived and wait for their answer. */
  waiting = 0;

  /** Where the agent server posts: `webhook_base_url`. */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  async start(): Promise<this> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', async () => {
        this.waiting++;
        for (const wake of this.waiters.splice(0)) wake();
        await this.held;
        this.waiting--;
        this.attempts++;
        const status = this.failures.shift() ?? 200;
        if (status === 200) {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
          this.accepted.push({ path: request.url ?? '', headers: request.headers, body });
        }
        response.writeHead(status, { 'content-type': 'application/json' }).end('{"success":true}');
        for (const wake of this.waiters.splice(0)) wake();
      });
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  /** Closes the port (connections too): posts fail to connect until `start`. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Answers nothing until the returned function is called. */
  hold(): () => void {
    let resolve: () => void = () => undefined;
    this.held = new Promise<void>((done) => {
      resolve = done;
    });
    return () => {
      this.held = undefined;
      resolve();
    };
  }

  failNext(...statuses: number[]): void {
    this.failures.push(...statuses);
  }

  /** The events posted for a conversation, in the order they were accepted. */
  events(conversationId: string): { id: string; kind: string; [key: string]: unknown }[] {
    return this.accepted
      .filter((post) => post.path === `/hooks/events/${conversationId}`)
      .flatMap((post) => post.body as { id: string; kind: string }[]);
  }

  /** The conversation infos posted for a conversation, in the order they were accepted. */
  infos(conversationId: string): { id: string; execution_status: string; [key: string]: unknown }[] {
    return this.accepted
      .filter((post) => post.path === '/hooks/conversations')
      .map((post) => post.body as { id: string; execution_status: string })
      .filter((info) => info.id === conversationId);
  }

  /** Waits until `check` holds, looking again at each post that arrives. */
  async until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`webhook receiver: condition not met; ${this.accepted.length} accepted`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}

/** A receiver for the calling file's tests: started before them, stopped after them. */
export function webhookReceiverPerFile(): WebhookReceiver {
  const receiver = new WebhookReceiver();
  beforeAll(async () => {
    await receiver.start();
  });
  afterAll(() => receiver.stop());
  return receiver;
}
