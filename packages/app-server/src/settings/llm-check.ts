import type { LLMCheckResult } from '@bosun/protocol';
import { AddressRefusedError, requestRaw } from '../git/providers/request.ts';

/** The LLM to check: a model, where its API is (null: the provider's default) and the key to send. */
export interface LlmCheckTarget {
  model: string;
  baseUrl: string | null;
  apiKey: string | null;
}

type WireApi = 'chat_completions' | 'responses' | 'anthropic';

const PROMPT = 'Reply with the single word OK.';
const ANTHROPIC_VERSION = '2023-06-01';
const MAX_ERROR_LENGTH = 2000;

/**
 * The wire API a model is reached through, as the agent chooses it (`@bosun/agent`'s `wireApiOf`, which the app
 * server does not import): Anthropic Messages for `anthropic/...` and `claude...`, the Responses API for
 * `openai/responses/...` and `responses/...`, Chat Completions for anything else.
 */
export function wireApiOf(model: string): WireApi {
  const name = model.toLowerCase();
  if (name.startsWith('anthropic/') || name.startsWith('claude')) return 'anthropic';
  if (name.startsWith('openai/responses/') || name.startsWith('responses/')) return 'responses';
  return 'chat_completions';
}

/** The model name sent to the provider: without a routing prefix (the agent's `wireModel`). */
const wireModel = (model: string) =>
  model.replace(/^(openai\/responses\/|responses\/|openai\/|anthropic\/|hosted_vllm\/)/, '');

const endpoint = (base: string, path: string) => `${base.replace(/\/+$/, '')}/${path}`;

/** The request one tiny completion of `target` is, in its wire API. */
function requestOf(target: LlmCheckTarget): { url: string; headers: Record<string, string>; body: unknown } {
  const model = wireModel(target.model);
  const key = target.apiKey;
  switch (wireApiOf(target.model)) {
    case 'anthropic': {
      const base = target.baseUrl ?? 'https://api.anthropic.com';
      return {
        url: endpoint(base, /\/v1\/?$/.test(base) ? 'messages' : 'v1/messages'),
        headers: { 'anthropic-version': ANTHROPIC_VERSION, ...(key ? { 'x-api-key': key } : {}) },
        body: { model, max_tokens: 32, messages: [{ role: 'user', content: PROMPT }] },
      };
    }
    case 'responses':
      return {
        url: endpoint(target.baseUrl ?? 'https://api.openai.com/v1', 'responses'),
        headers: key ? { authorization: `Bearer ${key}` } : {},
        body: { model, input: PROMPT, store: false },
      };
    default:
      return {
        url: endpoint(target.baseUrl ?? 'https://api.openai.com/v1', 'chat/completions'),
        headers: key ? { authorization: `Bearer ${key}` } : {},
        body: { model, messages: [{ role: 'user', content: PROMPT }] },
      };
  }
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => !!value && typeof value === 'object' && !Array.isArray(value);

/** The text of an answer of any of the three wire APIs. */
function answerText(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  const choice = Array.isArray(body.choices) ? body.choices[0] : undefined;
  if (isObject(choice) && isObject(choice.message)) {
    const { content } = choice.message;
    return typeof content === 'string' ? content : '';
  }
  if (Array.isArray(body.content)) {
    return body.content
      .filter((block): block is Json => isObject(block) && block.type === 'text')
      .map((block) => String(block.text ?? ''))
      .join('\n');
  }
  if (typeof body.output_text === 'string') return body.output_text;
  if (Array.isArray(body.output)) {
    return body.output
      .flatMap((item) => (isObject(item) && Array.isArray(item.content) ? item.content : []))
      .filter((part): part is Json => isObject(part) && part.type === 'output_text')
      .map((part) => String(part.text ?? ''))
      .join('\n');
  }
  return undefined;
}

/** The provider's own message in an error answer (OpenAI's and Anthropic's `error.message`, a `detail`), else its text. */
function errorText(text: string): string {
  try {
    const body = JSON.parse(text) as unknown;
    if (isObject(body)) {
      if (isObject(body.error) && typeof body.error.message === 'string') return body.error.message;
      if (typeof body.error === 'string') return body.error;
      if (typeof body.detail === 'string') return body.detail;
      if (typeof body.message === 'string') return body.message;
    }
  } catch {
    // Not JSON: the text as it came.
  }
  return text.trim() || '(an empty answer)';
}

/** `text` with the key replaced wherever it (or a recognisable part of it) appears. */
export function maskKey(text: string, key: string | null): string {
  if (!key) return text;
  let masked = text.split(key).join('****');
  // Some providers echo part of a wrong key ("sk-abc...wxyz"): its start and end are masked too.
  if (key.length >= 16) {
    for (const part of [key.slice(0, 12), key.slice(-8)]) masked = masked.split(part).join('****');
  }
  return masked;
}

const cut = (text: string) => (text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH)}…` : text);

/**
 * Makes one tiny completion with `target` (no retry, no redirect, at most `timeoutMs`; with `admit`, only at
 * addresses it admits, checked as the connection resolves them) and says what came of it: the answer and
 * the latency, or the provider's error in its own words, its status, or why it could not be reached. The key is
 * never part of the result.
 */
export async function checkLlm(
  target: LlmCheckTarget,
  timeoutMs: number,
  admit?: (address: string) => boolean,
): Promise<LLMCheckResult> {
  const fail = (error: string, latency: number | null, status?: number): LLMCheckResult => ({
    ok: false,
    model: target.model,
    latency_ms: latency,
    error: maskKey(cut(error), target.apiKey),
    ...(status === undefined ? {} : { status }),
  });
  let request: ReturnType<typeof requestOf>;
  try {
    request = requestOf(target);
    new URL(request.url);
  } catch {
    return fail(`The base URL is not a URL: ${target.baseUrl ?? ''}`, null);
  }
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let answered: { status: number; text: string };
  try {
    answered = await requestRaw(
      new URL(request.url),
      { headers: request.headers, timeoutMs, admit },
      JSON.stringify(request.body),
    );
  } catch (error) {
    if (error instanceof AddressRefusedError) {
      const host = new URL(request.url).host;
      return fail(
        `${host} is an internal address, which this server does not call for a check (its conversations reach the LLM from their sandboxes); the instance's own LLM address is always checked`,
        null,
      );
    }
    if (error instanceof Error && error.name === 'TimeoutError') {
      return fail(`The LLM did not answer within ${Math.round(timeoutMs / 1000)} s (${request.url})`, elapsed());
    }
    const why = (error as { code?: string }).code ?? (error as Error).message;
    return fail(`Cannot reach the LLM at ${request.url}: ${why}`, elapsed());
  }
  const { status, text } = answered;
  const latency = elapsed();
  if (status < 200 || status > 299) return fail(errorText(text), latency, status);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return fail(`The LLM answered with something that is not JSON: ${text.slice(0, 200)}`, latency, status);
  }
  const answer = answerText(body);
  if (answer === undefined) return fail(`The LLM's answer has no text: ${text.slice(0, 200)}`, latency);
  return { ok: true, model: target.model, latency_ms: latency, answer: maskKey(cut(answer.trim()), target.apiKey) };
}
