import { Agent, request } from 'node:http';
import type { AgentServerClient, StartConversationInput } from '@bosun/client';

export interface HttpResult {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** A keep-alive agent with up to `sockets` connections (one per concurrent client). */
export function keepAliveAgent(sockets: number): Agent {
  return new Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });
}

/** One HTTP request over `agent`; the body, when given, is sent as JSON (also for GET). */
export function httpRequest(
  agent: Agent,
  url: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<HttpResult> {
  const payload = body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        agent,
        method,
        headers: payload
          ? { 'content-type': 'application/json', 'content-length': String(payload.length), ...headers }
          : headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), headers: res.headers }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** A minimal valid `POST /api/conversations` body. */
export function startRequest(conversationId?: string): StartConversationInput {
  return {
    ...(conversationId ? { conversation_id: conversationId } : {}),
    agent: { llm: { model: 'bench-model', api_key: 'sk-bench' }, tools: [{ name: 'terminal' }] },
    workspace: { working_dir: '/tmp/bosun-bench-workspace' },
  };
}

/** Creates a conversation; returns its id. */
export async function createConversation(client: AgentServerClient): Promise<string> {
  return (await client.post('/api/conversations', { body: startRequest() })).id;
}
