import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface ProbeOptions {
  timeoutMs: number;
  /** `host:port` to connect to instead of the URL's host (the ingress controller), its Host header kept. */
  address?: string | undefined;
}

/**
 * Whether the sandbox answers through its Ingress: a GET of `<url>/alive` answered 2xx. Undefined when it does,
 * else why not (a TLS failure included: it is said, not hidden as "still starting").
 */
export function probeSandbox(url: string, options: ProbeOptions): Promise<string | undefined> {
  const target = new URL('/alive', url);
  const [host, port] = options.address ? splitAddress(options.address) : [target.hostname, target.port];
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const outgoing = request(
      {
        host,
        port: port || undefined,
        path: target.pathname,
        method: 'GET',
        headers: { host: target.host },
        servername: target.hostname,
        timeout: options.timeoutMs,
      },
      (response) => {
        response.resume();
        const code = response.statusCode ?? 0;
        resolve(code >= 200 && code < 300 ? undefined : `${target.href} answered ${code}`);
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    outgoing.on('error', (error) => resolve(`${target.href} does not answer: ${error.message}`));
    outgoing.end();
  });
}

function splitAddress(address: string): [string, string] {
  const at = address.lastIndexOf(':');
  return [address.slice(0, at), address.slice(at + 1)];
}
