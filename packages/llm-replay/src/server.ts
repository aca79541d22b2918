import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Body, asRecord } from './answer.ts';
import type { ApiAdapter, ApiName } from './apis/adapter.ts';
import { chatCompletions } from './apis/chat.ts';
import { messages } from './apis/messages.ts';
import { responses } from './apis/responses.ts';
import { Sleeper, answerTurn, isGone, requestHeaders, sendJson } from './respond.ts';
import { type Script, ScriptValidationError, loadScript, scriptErrors, validateScript } from './script.ts';
import { TurnQueue } from './turns.ts';

export interface RecordedRequest {
  method: string;
  path: string;
  /** Request headers; credentials (authorization, x-api-key, api-key, …) are replaced by `[REDACTED]`. */
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body, the raw text if it was not JSON, or null if empty. */
  body: unknown;
  /** The script turn that answered, or null (no match, bad request, models, unknown endpoint). */
  turn_index: number | null;
  /** Which wire format the path belongs to, or `models`, or null for unknown paths. */
  api: ApiName | 'models' | null;
  /** Why no turn answered, when that is the case. */
  error?: string;
}

export interface LlmReplayOptions {
  /** A script, or the path of a JSON script file. */
  script: Script | string;
  port?: number;
  host?: string;
  /** Called with each recorded request once it has been matched (for logging). */
  onRequest?: (request: RecordedRequest) => void;
  /** Called as each streamed event is written (for measuring how long a piece takes to reach a client). */
  onStreamEvent?: (event: { turnIndex: number; index: number; data: string }) => void;
  /**
   * The API key requests must carry (`Authorization: Bearer <key>`, `x-api-key` or `api-key`), else they get a
   * 401 as from a provider; none: any or no key is accepted. Proves a key reached the server without logging it.
   */
  apiKey?: string;
}

export interface LlmReplay {
  /** `http://127.0.0.1:PORT` (Anthropic SDKs take this as their base URL). */
  url: string;
  /** `url + '/v1'` (OpenAI SDKs take this as their base URL). */
  baseUrl: string;
  requests(): RecordedRequest[];
  /** Makes every turn unused again and empties the request log. */
  reset(): void;
  /** Replaces the script (validated) and makes every turn unused; the request log is kept. */
  setScript(script: Script): void;
  close(): Promise<void>;
}

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-api-key', 'api-key', 'cookie']);
const APIS: Record<string, ApiAdapter> = {
  '/chat/completions': chatCompletions,
  '/responses': responses,
  '/messages': messages,
};
const DEFAULT_MODEL = 'llm-replay';

function redact(headers: IncomingMessage['headers']): RecordedRequest['headers'] {
  const out: RecordedRequest['headers'] = {};
  for (const [name, value] of Object.entries(headers)) out[name] = SECRET_HEADERS.has(name) ? '[REDACTED]' : value;
  return out;
}

function carriesKey(headers: IncomingMessage['headers'], key: string): boolean {
  return headers.authorization === `Bearer ${key}` || headers['x-api-key'] === key || headers['api-key'] === key;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(text: string): { ok: true; value: unknown } | { ok: false; raw: string } {
  if (text === '') return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, raw: text };
  }
}

/** `/v1/chat/completions?x=1` and `/chat/completions/` both become `/chat/completions`. */
function normalizePath(url: string): string {
  const path = (url.split('?')[0] ?? '/').replace(/\/+$/, '') || '/';
  return path.startsWith('/v1/') ? path.slice(3) : path;
}

const clip = (text: string | undefined) =>
  text === undefined ? 'none' : JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}…` : text);

export async function startLlmReplay(options: LlmReplayOptions): Promise<LlmReplay> {
  const initial =
    typeof options.script === 'string' ? await loadScript(options.script) : validateScript(options.script);
  const queue = new TurnQueue(initial);
  const sleeper = new Sleeper();
  let log: RecordedRequest[] = [];

  function modelList(anthropic: boolean) {
    const id = queue.script.model ?? DEFAULT_MODEL;
    if (anthropic) {
      const model = { type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' };
      return { data: [model], has_more: false, first_id: id, last_id: id };
    }
    return { object: 'list', data: [{ id, object: 'model', created: 1735689600, owned_by: 'llm-replay' }] };
  }

  function control(path: string, method: string, text: string, res: ServerResponse): void {
    if (method === 'GET' && path === '/__requests') {
      sendJson(res, 200, log);
    } else if (method === 'POST' && path === '/__reset') {
      queue.reset();
      log = [];
      sendJson(res, 200, { ok: true });
    } else if (method === 'POST' && path === '/__script') {
      const parsed = parseBody(text);
      const errors = parsed.ok ? scriptErrors(parsed.value) : ['(script): invalid JSON'];
      if (errors.length > 0) {
        sendJson(res, 400, { error: { message: new ScriptValidationError(errors).message, errors } });
      } else {
        queue.replace((parsed as { value: Script }).value);
        sendJson(res, 200, { ok: true, turns: queue.script.turns.length });
      }
    } else {
      sendJson(res, 404, { error: { message: `llm-replay: no control endpoint ${method} ${path}` } });
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const path = normalizePath(req.url ?? '/');
    const text = await readBody(req);
    if (path.startsWith('/__')) return control(path, method, text, res);

    const parsed = parseBody(text);
    const api = method === 'POST' ? APIS[path] : undefined;
    const isModels = method === 'GET' && (path === '/models' || path.startsWith('/models/'));
    const entry: RecordedRequest = {
      method,
      path: (req.url ?? '/').split('?')[0] ?? '/',
      headers: redact(req.headers),
      body: parsed.ok ? parsed.value : parsed.raw,
      turn_index: null,
      api: api?.name ?? (isModels ? 'models' : null),
    };
    log.push(entry);
    const done = () => options.onRequest?.(structuredClone(entry));

    if (isModels) {
      const anthropic = req.headers['anthropic-version'] !== undefined;
      const list = modelList(anthropic);
      const model = list.data.find((m) => `/models/${m.id}` === path);
      if (path !== '/models' && !model) entry.error = 'unknown model';
      done();
      if (path === '/models') return sendJson(res, 200, list);
      if (model) return sendJson(res, 200, model);
      return sendJson(res, 404, (anthropic ? messages : chatCompletions).errorBody(404, `model not found: ${path}`));
    }
    if (!api) {
      entry.error = 'unknown endpoint';
      done();
      return sendJson(res, 404, chatCompletions.errorBody(404, `llm-replay: no endpoint ${method} ${entry.path}`));
    }
    if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) {
      entry.error = 'request body is not a JSON object';
      done();
      return sendJson(res, 400, api.errorBody(400, `llm-replay: ${entry.error}`), requestHeaders(api));
    }
    if (options.apiKey !== undefined && !carriesKey(req.headers, options.apiKey)) {
      entry.error = 'missing or wrong API key';
      done();
      return sendJson(res, 401, api.errorBody(401, `llm-replay: ${entry.error}`), requestHeaders(api));
    }
    const body = parsed.value as Body;
    const request = { lastUserText: api.lastUserText(body), lastToolResultText: api.lastToolResultText(body) };
    const taken = queue.take(request);
    if (!taken) {
      const unused = queue.unused();
      entry.error =
        `llm-replay: no scripted turn matched this request (last user message: ${clip(request.lastUserText)}; ` +
        `last tool result: ${clip(request.lastToolResultText)}; ` +
        `unused turns: ${unused.length === 0 ? 'none' : unused.map((u) => `${u.index}${u.when ? ` when ${JSON.stringify(u.when)}` : ''}`).join(', ')})`;
      done();
      return sendJson(res, 500, api.errorBody(500, entry.error), requestHeaders(api));
    }
    entry.turn_index = taken.index;
    done();
    const requested = asRecord(body).model;
    const model = queue.script.model ?? (typeof requested === 'string' ? requested : DEFAULT_MODEL);
    const { onStreamEvent } = options;
    await answerTurn({
      res,
      api,
      body,
      turn: taken.turn,
      turnIndex: taken.index,
      model,
      sleeper,
      ...(onStreamEvent ? { onStreamEvent } : {}),
    });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (isGone(res)) return;
      if (res.headersSent) res.destroy();
      else sendJson(res, 500, { error: { message: `llm-replay: ${(error as Error).message}`, type: 'server_error' } });
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;

  return {
    url,
    baseUrl: `${url}/v1`,
    requests: () => structuredClone(log),
    reset() {
      queue.reset();
      log = [];
    },
    setScript(script) {
      queue.replace(validateScript(script));
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        sleeper.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
