import { type LaunchDecoded, buildLaunchLink, decodeLaunchLink, formatLaunchProblem } from '@bosun/protocol';
import type { Command, CommandIO } from '../command.ts';

const USAGE = `Usage: bosun launch decode URL-OR-PARAM [--json]
       bosun launch link --plugin SOURCE[@REF][:PATH] [--param NAME=VALUE ...] ... [--message TEXT] [--base URL]

Launch links (/launch?plugins=...&message=...) open the app with plugins to load and a first message.

decode  prints what a link holds: a whole link, or only its plugins parameter (base64, standard or URL-safe,
        percent-encoded or not). --json prints {plugins, message, problems}. Every problem is listed.
link    prints the link of one or more plugins. SOURCE is github:owner/repo (or gitlab:, bitbucket:) or a
        Git URL; a secret in it is named as a placeholder (https://x-access-token:\${GITHUB_TOKEN}@host/...).
        --param sets a parameter's default value of the --plugin before it (true, false and numbers are
        typed; everything else is text). --base is where the app is (default: BOSUN_PUBLIC_URL, else
        http://127.0.0.1:3000).

Exit status: 0 for a good link, 1 when it has problems, 2 for bad usage.`;

export const launchCommand: Command = {
  name: 'launch',
  summary: 'Build a launch link of plugins, or show what one holds and its problems',
  usage: USAGE,
  async run(args, io) {
    const fail = (message: string) => {
      io.stderr.write(`bosun launch: ${message}\n${args.length === 0 ? `${USAGE}\n` : ''}`);
      return 2;
    };
    const [action, ...rest] = args;
    if (action === 'decode') return decode(rest, io, fail);
    if (action === 'link') return link(rest, io, fail);
    return fail(action ? `unknown action '${action}' (decode or link)` : 'missing action (decode or link)');
  },
};

function decode(args: string[], io: CommandIO, fail: (message: string) => number): number {
  const json = args.includes('--json');
  const inputs = args.filter((arg) => arg !== '--json');
  const unknown = inputs.find((arg) => arg.startsWith('--'));
  if (unknown) return fail(`unknown option '${unknown}'`);
  if (inputs.length !== 1) return fail('expected one link or plugins parameter');
  const decoded = decodeLaunchLink(inputs[0] as string);
  if (json) io.stdout.write(`${JSON.stringify(decoded, null, 2)}\n`);
  else {
    io.stdout.write(renderDecoded(decoded));
    for (const problem of decoded.problems) io.stderr.write(`bosun launch: ${formatLaunchProblem(problem)}\n`);
  }
  return decoded.problems.length > 0 ? 1 : 0;
}

/** The references and message, one plugin a paragraph. */
export function renderDecoded({ plugins, message }: LaunchDecoded): string {
  const lines = [`Plugins (${plugins.length})${plugins.length ? ':' : ''}`];
  for (const plugin of plugins) {
    lines.push(`  ${plugin.source}`);
    if (plugin.ref) lines.push(`    ref:  ${plugin.ref}`);
    if (plugin.repo_path) lines.push(`    path: ${plugin.repo_path}`);
    for (const [name, value] of Object.entries(plugin.parameters ?? {})) {
      lines.push(`    ${name} = ${JSON.stringify(value)}`);
    }
  }
  lines.push(`Message: ${message === null ? '(none)' : message}`);
  return `${lines.join('\n')}\n`;
}

function link(args: string[], io: CommandIO, fail: (message: string) => number): number {
  const plugins: Record<string, unknown>[] = [];
  let message: string | undefined;
  let base = process.env.BOSUN_PUBLIC_URL || 'http://127.0.0.1:3000';
  for (let i = 0; i < args.length; i += 1) {
    const flag = args[i] as string;
    const value = args[i + 1];
    if (!['--plugin', '--param', '--message', '--base'].includes(flag)) return fail(`unknown option '${flag}'`);
    if (value === undefined) return fail(`${flag} needs a value`);
    i += 1;
    if (flag === '--plugin') plugins.push(pluginOf(value));
    else if (flag === '--message') message = value;
    else if (flag === '--base') base = value;
    else {
      const plugin = plugins.at(-1);
      const equals = value.indexOf('=');
      if (!plugin) return fail('--param belongs to a --plugin: give the --plugin first');
      if (equals < 1) return fail(`--param: expected NAME=VALUE, got '${value}'`);
      plugin.parameters = {
        ...(plugin.parameters as object),
        [value.slice(0, equals)]: typed(value.slice(equals + 1)),
      };
    }
  }
  if (plugins.length === 0) return fail('give at least one --plugin');
  const built = buildLaunchLink(plugins, { message, baseUrl: base });
  if (built.url === null) {
    for (const problem of built.problems) io.stderr.write(`bosun launch: ${formatLaunchProblem(problem)}\n`);
    return 1;
  }
  io.stdout.write(`${built.url}\n`);
  return 0;
}

/**
 * `SOURCE[@REF][:PATH]` as a reference. The source's own `:` and `@` (`github:`, `https://user@host`,
 * `git@host:`) are skipped first; after them, `:` starts the path and the last `@` the ref (a Git ref holds
 * neither `:` nor `@{`).
 */
export function pluginOf(spec: string): Record<string, unknown> {
  const head =
    /^(github|gitlab|bitbucket):/.exec(spec) ?? /^[a-z]+:\/\/[^/]*/i.exec(spec) ?? /^[^/:@]+@[^/:]+:/.exec(spec);
  const start = head ? head[0].length : 0;
  let tail = spec.slice(start);
  const plugin: Record<string, unknown> = {};
  const colon = tail.indexOf(':');
  if (colon >= 0) {
    plugin.repo_path = tail.slice(colon + 1);
    tail = tail.slice(0, colon);
  }
  const at = tail.lastIndexOf('@');
  if (at >= 0) {
    plugin.ref = tail.slice(at + 1);
    tail = tail.slice(0, at);
  }
  return { source: spec.slice(0, start) + tail, ...plugin };
}

function typed(value: string): string | number | boolean {
  if (value === 'true' || value === 'false') return value === 'true';
  if (/^-?\d+(\.\d+)?$/.test(value) && Number.isFinite(Number(value))) return Number(value);
  return value;
}
