import { type Static, Type } from '@sinclair/typebox';
import { nullable, openObject, ref, strictObject } from '../schema/builders.ts';
import { decodedSize, fromBase64, toBase64 } from './base64.ts';
import { PluginSpec } from './conversation-start.ts';
import { type LaunchPlugin, LaunchProblem, MAX_LAUNCH_PLUGINS, checkLaunchPlugin } from './launch-references.ts';

/**
 * Launch links, `/launch?plugins=<base64 of a JSON array of plugin references>&message=...` (OpenHands' format).
 * Pure code, shared by the server, the command line and the web UI: no I/O and no Node-only API.
 */

export const MAX_LAUNCH_PAYLOAD_BYTES = 256 * 1024;
export const MAX_LAUNCH_MESSAGE = 5000;

export const LaunchDecoded = strictObject('LaunchDecoded', 'What a launch link holds.', {
  plugins: Type.Array(ref(PluginSpec), { description: 'The references without problems, every field present.' }),
  message: nullable(Type.String({ description: 'The first message, as the link has it.' })),
  problems: Type.Array(ref(LaunchProblem), { description: 'Every problem found; none for a good link.' }),
});
export type LaunchDecoded = { plugins: LaunchPlugin[]; message: string | null; problems: LaunchProblem[] };

export const LaunchLinkRequest = strictObject(
  'LaunchLinkRequest',
  'The plugins and message of a launch link to build.',
  {
    plugins: Type.Array(openObject({ description: 'A plugin reference {source, ref?, repo_path?, parameters?}.' }), {
      maxItems: 1000,
      description: `The plugins to load (1 to ${MAX_LAUNCH_PLUGINS}).`,
    }),
    message: Type.Optional(nullable(Type.String({ description: 'The first message (a slash command, say).' }))),
    base_url: Type.Optional(
      nullable(Type.String({ maxLength: 2048, description: 'Where the web UI is (default: this server).' })),
    ),
  },
);
export type LaunchLinkRequest = Static<typeof LaunchLinkRequest>;

export const LaunchLink = strictObject('LaunchLink', 'A launch link.', {
  url: Type.String({ description: 'The link: `<base_url>/launch?plugins=...&message=...`.' }),
  problems: Type.Array(ref(LaunchProblem), { description: 'Always empty: a request with problems is a 422.' }),
});
export type LaunchLink = Static<typeof LaunchLink>;

/**
 * Decodes a launch link: a whole URL (anything with a `?`), or only the value of its `plugins` parameter (as
 * given, or still percent-encoded). Base64 may be standard or URL-safe, padded or not, with `+` turned to spaces.
 */
export function decodeLaunchLink(input: string): LaunchDecoded {
  const problems: LaunchProblem[] = [];
  const trimmed = input.trim();
  let encoded = trimmed;
  let message: string | null = null;
  if (trimmed.includes('?') || /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    const start = trimmed.indexOf('?');
    const query = new URLSearchParams(start < 0 ? '' : trimmed.slice(start + 1).split('#')[0]);
    message = query.get('message');
    const plugins = query.get('plugins');
    if (plugins === null) {
      const single = singlePluginOf(query);
      if (single) return withMessage(checkedPlugins([single], problems), message, problems);
      problems.push({ loc: ['plugins'], msg: 'the link has no plugins parameter' });
      return withMessage([], message, problems);
    }
    encoded = plugins;
  } else if (trimmed.includes('%')) {
    try {
      encoded = decodeURIComponent(trimmed);
    } catch {
      problems.push({ loc: ['plugins'], msg: 'broken percent-encoding' });
      return withMessage([], message, problems);
    }
  }
  return withMessage(decodePluginsParameter(encoded, problems), message, problems);
}

/** The value of a `plugins` parameter as references; its problems added to `problems`. */
export function decodePluginsParameter(encoded: string, problems: LaunchProblem[]): LaunchPlugin[] {
  const loc = ['plugins'];
  const size = decodedSize(encoded.trim());
  if (size > MAX_LAUNCH_PAYLOAD_BYTES) {
    problems.push({ loc, msg: tooLarge(size) });
    return [];
  }
  const bytes = fromBase64(encoded.trim());
  if (typeof bytes === 'string') {
    problems.push({ loc, msg: bytes });
    return [];
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    problems.push({ loc, msg: 'the decoded payload is not UTF-8 text' });
    return [];
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    problems.push({ loc, msg: `the decoded payload is not JSON (${(error as Error).message})` });
    return [];
  }
  return checkedPlugins(value, problems);
}

/** The references of a JSON value (an array of 1 to 100 of them); every problem added to `problems`. */
export function checkedPlugins(
  value: unknown,
  problems: LaunchProblem[],
  at: (string | number)[] = [],
): LaunchPlugin[] {
  const loc = [...at, 'plugins'];
  if (!Array.isArray(value)) {
    const what = value === null ? 'null' : typeof value === 'object' ? 'an object (wrap it in [ ])' : typeof value;
    problems.push({ loc, msg: `expected a JSON array of plugin references, got ${what}` });
    return [];
  }
  if (value.length === 0) {
    problems.push({ loc, msg: 'no plugins: the array is empty' });
    return [];
  }
  if (value.length > MAX_LAUNCH_PLUGINS) {
    problems.push({ loc, msg: `${value.length} plugins; a launch link holds at most ${MAX_LAUNCH_PLUGINS}` });
    return [];
  }
  const plugins: LaunchPlugin[] = [];
  value.forEach((item, index) => {
    const plugin = checkLaunchPlugin(item, [...loc, index], problems);
    if (plugin) plugins.push(plugin);
  });
  return plugins;
}

export interface LaunchLinkOptions {
  message?: string | null;
  /** Where the web UI is; without it the link is a path (`/launch?...`). */
  baseUrl?: string | null;
  /** Where the problems are reported (the API says `["body", ...]`). */
  at?: (string | number)[];
}

/**
 * The launch link of `plugins` (and a first message): standard base64, percent-encoded so that `+`, `/` and `=`
 * survive any query string decoder. `url` is `null` when there are problems (every one of them reported).
 */
export function buildLaunchLink(
  plugins: unknown,
  options: LaunchLinkOptions = {},
): { url: string | null; problems: LaunchProblem[] } {
  const problems: LaunchProblem[] = [];
  const at = options.at ?? [];
  const checked = checkedPlugins(plugins, problems, at);
  const message = options.message ?? null;
  messageProblem(message, problems, at);
  const base = (options.baseUrl ?? '').replace(/\/+$/, '');
  if (base && !/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(base)) {
    problems.push({ loc: [...at, 'base_url'], msg: 'expected an http(s) URL without query or fragment' });
  }
  if (problems.length > 0) return { url: null, problems };
  const bytes = new TextEncoder().encode(JSON.stringify(checked.map(compact)));
  if (bytes.length > MAX_LAUNCH_PAYLOAD_BYTES) {
    return { url: null, problems: [{ loc: [...at, 'plugins'], msg: tooLarge(bytes.length) }] };
  }
  const query = `plugins=${encodeURIComponent(toBase64(bytes))}`;
  return { url: `${base}/launch?${query}${message ? `&message=${encodeURIComponent(message)}` : ''}`, problems };
}

/** A problem as one line: `plugins[3].repo_path: must be relative to the repository`. */
export function formatLaunchProblem({ loc, msg }: LaunchProblem): string {
  const where = loc.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`)).join('');
  return where ? `${where}: ${msg}` : msg;
}

/** A reference with only its set fields, as OpenHands' own links have them. */
function compact(plugin: LaunchPlugin): Record<string, unknown> {
  return Object.fromEntries(Object.entries(plugin).filter(([, value]) => value !== null));
}

/** OpenHands' development form: `plugin_source`, `plugin_ref`, `plugin_repo_path` (one plugin, no parameters). */
function singlePluginOf(query: URLSearchParams): Record<string, string | null> | null {
  const source = query.get('plugin_source');
  if (source === null) return null;
  return { source, ref: query.get('plugin_ref'), repo_path: query.get('plugin_repo_path') };
}

function withMessage(plugins: LaunchPlugin[], message: string | null, problems: LaunchProblem[]): LaunchDecoded {
  messageProblem(message, problems, []);
  return { plugins, message, problems };
}

function messageProblem(message: unknown, problems: LaunchProblem[], at: (string | number)[]): void {
  if (message === null || message === undefined) return;
  if (typeof message !== 'string') problems.push({ loc: [...at, 'message'], msg: 'expected a string' });
  else if (message.length > MAX_LAUNCH_MESSAGE) {
    problems.push({ loc: [...at, 'message'], msg: `longer than ${MAX_LAUNCH_MESSAGE} characters` });
  }
}

function tooLarge(bytes: number): string {
  return `the decoded payload is ${bytes} bytes; a launch link holds at most ${MAX_LAUNCH_PAYLOAD_BYTES} bytes (256 KiB)`;
}
