import type { PluginProblem } from '@bosun/protocol';
import { redactCredentials } from '../git/index.ts';

/** A problem of a plugin or marketplace; messages are redacted (a URL in one never shows its credentials). */
export function problem(severity: PluginProblem['severity'], path: string | null, message: string): PluginProblem {
  return { severity, path, message: redactCredentials(message) };
}

export const error = (path: string | null, message: string) => problem('error', path, message);
export const warning = (path: string | null, message: string) => problem('warning', path, message);

/** One line per problem, for logs and the CLI. */
export function formatProblem(p: PluginProblem): string {
  return `${p.severity}: ${p.path ? `${p.path}: ` : ''}${p.message}`;
}
