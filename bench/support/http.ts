import { Agent, request } from 'node:http';

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
export function startRequest(conversationId?: string): Record<string, unknown> {
  return {
    ...(conversationId ? { conversation_id: conversationId } : {}),
    agent: { llm: { model: 'bench-model', api_key: 'sk-bench' }, tools: [{ name: 'terminal' }] },
    workspace: { working_dir: '/tmp/bosun-bench-workspace' },
  };
}

/** Creates a conversation over HTTP; returns its id. */
export async function createConversation(agent: Agent, baseUrl: string): Promise<string> {
  const result = await httpRequest(agent, `${baseUrl}/api/conversations`, 'POST', startRequest());
  if (result.status !== 201) throw new Error(`POST /api/conversations: HTTP ${result.status} ${result.body}`);
  return (JSON.parse(result.body) as { id: string }).id;
}
