import { Type } from '@sinclair/typebox';

/** How logs are written: a JSON object a line (for machines), or one readable line an entry (for a terminal). */
export type LogFormat = 'json' | 'pretty';
export type LogFormatSetting = LogFormat | 'auto';

/** Something logs are written to (a stream; a terminal has `isTTY`). */
export interface LogDestination {
  write(line: string): unknown;
  isTTY?: boolean;
}

/** The `log_format` setting of a Bosun HTTP service. */
export function logFormatSetting() {
  return Type.Union([Type.Literal('auto'), Type.Literal('json'), Type.Literal('pretty')], {
    default: 'auto',
    description: 'How logs are written: json (one object a line), pretty (readable), auto (pretty on a terminal).',
  });
}

/** The format of logs written to `destination` under `setting` (`auto`: pretty only on a terminal). */
export function logFormatFor(setting: LogFormatSetting | undefined, destination: LogDestination): LogFormat {
  if (setting === 'json' || setting === 'pretty') return setting;
  return destination.isTTY === true ? 'pretty' : 'json';
}

/** `destination` as pino's destination: itself for JSON, else a stream writing each JSON line readably. */
export function logStreamFor(setting: LogFormatSetting | undefined, destination: LogDestination): LogDestination {
  return logFormatFor(setting, destination) === 'pretty' ? prettyLogStream(destination) : destination;
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** What every line has, or what the line shows another way. */
const SHOWN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'req', 'res', 'reqId', 'responseTime', 'err']);
/** Requests whose completion is not logged yet (a WebSocket's never is): the oldest are forgotten past this. */
const OPEN_REQUESTS = 1000;

interface Entry {
  level?: number;
  time?: number;
  msg?: string;
  reqId?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { message?: string; stack?: string };
  [field: string]: unknown;
}

/**
 * A destination that writes each of pino's JSON lines as `12:00:00.123 INFO  message  key=value`, a request as
 * one line when it completes (`GET /path -> 200 in 1.2 ms`, Fastify logs its start and end), an error with its
 * stack. What pino redacted stays redacted: this only rewrites what pino wrote.
 */
export function prettyLogStream(destination: LogDestination): LogDestination {
  const requests = new Map<string, string>();
  return {
    write(chunk: string) {
      for (const line of chunk.split('\n')) {
        if (line === '') continue;
        let entry: Entry;
        try {
          entry = JSON.parse(line) as Entry;
        } catch {
          destination.write(`${line}\n`);
          continue;
        }
        const text = prettyLine(entry, requests);
        if (text !== undefined) destination.write(`${text}\n`);
      }
    },
  };
}

function prettyLine(entry: Entry, requests: Map<string, string>): string | undefined {
  let message = entry.msg ?? '';
  if (entry.reqId !== undefined && entry.req?.method !== undefined && message === 'incoming request') {
    requests.set(entry.reqId, `${entry.req.method} ${entry.req.url ?? ''}`);
    if (requests.size > OPEN_REQUESTS) requests.delete(requests.keys().next().value as string);
    return undefined;
  }
  if (entry.reqId !== undefined && entry.res?.statusCode !== undefined && message === 'request completed') {
    const request = requests.get(entry.reqId) ?? `request ${entry.reqId}`;
    requests.delete(entry.reqId);
    const took = entry.responseTime === undefined ? '' : ` in ${entry.responseTime.toFixed(1)} ms`;
    message = `${request} -> ${entry.res.statusCode}${took}`;
  }
  const level = (LEVELS[entry.level ?? 30] ?? String(entry.level)).padEnd(5);
  const time = new Date(entry.time ?? Date.now()).toISOString().slice(11, 23);
  const fields = Object.entries(entry)
    .filter(([key]) => !SHOWN.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  const error = entry.err ? `\n  ${(entry.err.stack ?? entry.err.message ?? '').split('\n').join('\n  ')}` : '';
  return `${time} ${level} ${[message, ...fields].join('  ')}${error}`;
}
