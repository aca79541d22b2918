import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Kind, KubeObject } from './kinds.ts';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'delete';

export function verbOf(method: string, name: string | undefined, watch: boolean): Verb | undefined {
  if (method === 'GET') return name ? 'get' : watch ? 'watch' : 'list';
  if (method === 'POST' && !name) return 'create';
  if (method === 'PUT' && name) return 'update';
  if (method === 'DELETE' && name) return 'delete';
  return undefined;
}

export function schemaProblem(kind: Kind, object: KubeObject): string | undefined {
  try {
    kind.validate(object);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** A Secret's `stringData` is write-only: the server folds it into `data` (base64). */
export function withSecretData(object: KubeObject): KubeObject {
  if (object.kind !== 'Secret' || !object.stringData) return object;
  const { stringData, ...rest } = object as KubeObject & {
    stringData: Record<string, string>;
    data?: Record<string, string>;
  };
  const encoded = Object.fromEntries(
    Object.entries(stringData).map(([key, value]) => [key, Buffer.from(value).toString('base64')]),
  );
  return { ...rest, data: { ...rest.data, ...encoded } };
}

export async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

export function send(response: ServerResponse, code: number, body: unknown): void {
  response.writeHead(code, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

export function status(response: ServerResponse, code: number, reason: string, message: string): void {
  send(response, code, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
}

export function notFound(response: ServerResponse, kind: Kind, name: string): void {
  status(response, 404, 'NotFound', `${kind.resource} "${name}" not found`);
}
