import { readFile } from 'node:fs/promises';

/** One tool call the scripted model makes. */
export interface ToolCall {
  name: string;
  /** An object is sent as JSON; a string is sent exactly as written (it may be invalid JSON). Default `{}`. */
  arguments?: Record<string, unknown> | string;
  /** Fixed call id (`call_…` / `toolu_…` by default, random). */
  id?: string;
}

/** Conditions a request must meet for a turn to answer it. All given conditions must hold. */
export interface TurnWhen {
  /** Substring of the text of the last user message (tool results are not user messages). */
  last_user_message_contains?: string;
  /** Substring of the text of the last tool result in the request. */
  last_tool_result_contains?: string;
}

export interface TurnError {
  /** HTTP status to answer with (400-599). */
  status: number;
  /** Response body; default: the API's own error shape with a message naming llm-replay. */
  body?: unknown;
  /** Answer this many requests with the error before the turn is used up (default 1). */
  times?: number;
  /** Extra response headers, e.g. `{"retry-after": "0"}`. */
  headers?: Record<string, string>;
}

export interface TurnUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  cached_tokens?: number;
  reasoning_tokens?: number;
}

export type FinishReason = 'stop' | 'tool_calls' | 'length';

/** One scripted model answer. */
export interface Turn {
  content?: string | null;
  tool_calls?: ToolCall[];
  reasoning?: string;
  /** Anthropic `thinking.signature` and Responses `reasoning.encrypted_content`; default derived from the text. */
  reasoning_signature?: string;
  /** Anthropic `redacted_thinking.data` (Responses: a reasoning item with only `encrypted_content`). */
  redacted_reasoning?: string;
  when?: TurnWhen;
  /** Answer this many requests before the turn is used up (default 1). */
  times?: number;
  error?: TurnError;
  delay_ms?: number;
  /** Pause between streamed events. */
  stream_delay_ms?: number;
  /** Streaming: send this many events, then drop the connection (a stream that breaks off midway). */
  stream_cut_after?: number;
  hang?: boolean;
  /** `true`: a 200 whose body is not valid JSON; a string: that exact body. */
  malformed?: boolean | string;
  usage?: TurnUsage;
  token_ids?: { prompt?: number[]; response?: number[] };
  finish_reason?: FinishReason;
  /** Free text for the script's reader; ignored. */
  comment?: string;
}

export interface Script {
  turns: Turn[];
  model?: string;
  /** When no unused turn matches, answer again with the script's last turn (if it matches). */
  repeat_last?: boolean;
  comment?: string;
}

export class ScriptValidationError extends Error {
  readonly errors: string[];
  constructor(errors: string[], source?: string) {
    super(`invalid llm-replay script${source ? ` ${source}` : ''}:\n  ${errors.join('\n  ')}`);
    this.name = 'ScriptValidationError';
    this.errors = errors;
  }
}

type Check = (value: unknown, path: string, errors: string[]) => void;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const describe = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

const string: Check = (value, path, errors) => {
  if (typeof value !== 'string') errors.push(`${path}: must be a string, got ${describe(value)}`);
};
const boolean: Check = (value, path, errors) => {
  if (typeof value !== 'boolean') errors.push(`${path}: must be a boolean, got ${describe(value)}`);
};
const integer =
  (min: number, max = Number.MAX_SAFE_INTEGER): Check =>
  (value, path, errors) => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
      errors.push(`${path}: must be an integer ${range}, got ${JSON.stringify(value) ?? describe(value)}`);
    }
  };
const arrayOf =
  (item: Check): Check =>
  (value, path, errors) => {
    if (!Array.isArray(value)) {
      errors.push(`${path}: must be an array, got ${describe(value)}`);
      return;
    }
    value.forEach((element, index) => {
      item(element, `${path}[${index}]`, errors);
    });
  };
const oneOf =
  (allowed: readonly unknown[]): Check =>
  (value, path, errors) => {
    if (!allowed.includes(value)) {
      errors.push(`${path}: must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`);
    }
  };
const any: Check = () => {};

/** A strict object: unknown fields are errors, so typos do not pass silently. */
const object =
  (fields: Record<string, Check>, required: string[] = []): Check =>
  (value, path, errors) => {
    if (!isObject(value)) {
      errors.push(`${path}: must be an object, got ${describe(value)}`);
      return;
    }
    for (const key of required) {
      if (value[key] === undefined) errors.push(`${path}.${key}: required`);
    }
    for (const [key, field] of Object.entries(value)) {
      const check = fields[key];
      if (!check) errors.push(`${path}.${key}: unknown field`);
      else if (field !== undefined) check(field, `${path}.${key}`, errors);
    }
  };

const toolCall = object(
  {
    name: string,
    id: string,
    arguments: (value, path, errors) => {
      if (typeof value !== 'string' && !isObject(value)) {
        errors.push(`${path}: must be an object or a string, got ${describe(value)}`);
      }
    },
  },
  ['name'],
);

const turnFields: Record<string, Check> = {
  content: (value, path, errors) => {
    if (value !== null && typeof value !== 'string') errors.push(`${path}: must be a string or null`);
  },
  tool_calls: arrayOf(toolCall),
  reasoning: string,
  reasoning_signature: string,
  redacted_reasoning: string,
  when: object({ last_user_message_contains: string, last_tool_result_contains: string }),
  times: integer(1),
  error: object(
    {
      status: integer(400, 599),
      body: any,
      times: integer(1),
      headers: (value, path, errors) => {
        if (!isObject(value)) errors.push(`${path}: must be an object, got ${describe(value)}`);
        else for (const [key, header] of Object.entries(value)) string(header, `${path}.${key}`, errors);
      },
    },
    ['status'],
  ),
  delay_ms: integer(0),
  stream_delay_ms: integer(0),
  stream_cut_after: integer(0),
  hang: boolean,
  malformed: (value, path, errors) => {
    if (typeof value !== 'boolean' && typeof value !== 'string') errors.push(`${path}: must be a boolean or a string`);
  },
  usage: object({
    prompt_tokens: integer(0),
    completion_tokens: integer(0),
    cached_tokens: integer(0),
    reasoning_tokens: integer(0),
  }),
  token_ids: object({ prompt: arrayOf(integer(0)), response: arrayOf(integer(0)) }),
  finish_reason: oneOf(['stop', 'tool_calls', 'length']),
  comment: string,
};

const turn: Check = (value, path, errors) => {
  object(turnFields)(value, path, errors);
  if (!isObject(value)) return;
  const modes = ['error', 'hang', 'malformed'].filter((key) => value[key] !== undefined && value[key] !== false);
  if (modes.length > 1) errors.push(`${path}.${modes[1]}: cannot be combined with ${modes[0]}`);
  const error = value.error;
  if (isObject(error) && error.times !== undefined && value.times !== undefined && error.times !== value.times) {
    errors.push(`${path}.times: conflicts with error.times (give one of them)`);
  }
};

const script = object({ turns: arrayOf(turn), model: string, repeat_last: boolean, comment: string }, ['turns']);

/** Checks a script; returns every problem as `path: message` (empty when valid). */
export function scriptErrors(value: unknown): string[] {
  const errors: string[] = [];
  if (!isObject(value)) return [`(script): must be an object with a "turns" array, got ${describe(value)}`];
  script(value, '', errors);
  return errors.map((error) => error.replace(/^\./, ''));
}

/** Returns the script if it is valid, else throws a ScriptValidationError naming each bad field. */
export function validateScript(value: unknown, source?: string): Script {
  const errors = scriptErrors(value);
  if (errors.length > 0) throw new ScriptValidationError(errors, source);
  return value as Script;
}

/** Reads and validates a script file (JSON). */
export async function loadScript(path: string): Promise<Script> {
  const text = await readFile(path, 'utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ScriptValidationError([`(script): invalid JSON: ${(error as Error).message}`], path);
  }
  return validateScript(value, path);
}

/** How many requests a turn answers before it is used up. */
export function turnTimes(turn: Turn): number {
  return turn.times ?? turn.error?.times ?? 1;
}
