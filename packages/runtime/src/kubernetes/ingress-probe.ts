import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type AgentActivity, agentActivityOf } from '../lifecycle.ts';

export interface ProbeOptions {
  timeoutMs: number;
  /** `host:port` to connect to instead of the URL's host (the ingress controller), its Host header kept. */
  address?: string | undefined;
}

/** A sandbox answers what it likes: no more of it is kept than these answers need. */
const MAX_BODY = 65_536;

type Answer = { code: number; body: string } | { error: string };

/** A GET of `path` at the sandbox's URL, through its Ingress (or `address`, with the URL's Host and SNI). */
function ingressGet(url: string, path: string, options: ProbeOptions, headers: Record<string, string> = {}) {
  const target = new URL(path, url);
  const [host, port] = options.address ? splitAddress(options.address) : [target.hostname, target.port];
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Answer>((resolve) => {
    const outgoing = request(
      {
        host,
        port: port || undefined,
        path: `${target.pathname}${target.search}`,
        method: 'GET',
        headers: { ...headers, host: target.host },
        servername: target.hostname,
        timeout: options.timeoutMs,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (body.length < MAX_BODY) body += chunk;
        });
        response.on('end', () => resolve({ code: response.statusCode ?? 0, body }));
        response.on('error', (error) => resolve({ error: error.message }));
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    outgoing.on('error', (error) => resolve({ error: error.message }));
    outgoing.end();
  });
}

/**
 * Whether the sandbox answers through its Ingress: a GET of `<url>/alive` answered 2xx. Undefined when it does,
 * else why not (a TLS failure included: it is said, not hidden as "still starting").
 */
export async function probeSandbox(url: string, options: ProbeOptions): Promise<string | undefined> {
  const href = new URL('/alive', url).href;
  const answer = await ingressGet(url, '/alive', options);
  if ('error' in answer) return `${href} does not answer: ${answer.error}`;
  return answer.code >= 200 && answer.code < 300 ? undefined : `${href} answered ${answer.code}`;
}

/**
 * What its agent server says of its activity, asked through its Ingress like the probe: `/server_info` `idle_time`
 * and the running conversations (with its session key); undefined when either does not answer 200 with JSON.
 */
export async function sandboxActivity(
  url: string,
  sessionKey: string,
  options: ProbeOptions,
): Promise<AgentActivity | undefined> {
  const [info, running] = await Promise.all([
    ingressGet(url, '/server_info', options),
    ingressGet(url, '/api/conversations/count?status=running', options, { 'X-Session-API-Key': sessionKey }),
  ]);
  return agentActivityOf(jsonOf(info), jsonOf(running));
}

function jsonOf(answer: Answer): unknown {
  if ('error' in answer || answer.code !== 200) return undefined;
  try {
    return JSON.parse(answer.body);
  } catch {
    return undefined;
  }
}

function splitAddress(address: string): [string, string] {
  const at = address.lastIndexOf(':');
  return [address.slice(0, at), address.slice(at + 1)];
}
