import { spawn } from 'node:child_process';
import type { HookEventName } from '@bosun/protocol';
import { SERVER_ONLY } from '../tools/terminal/terminal-tool.ts';
import type { CommandHook } from './config.ts';

/** What one hook run decided. `error`: it failed (exit code other than 0 and 2, bad JSON, timeout...). */
export interface HookRunResult {
  outcome: 'allow' | 'block' | 'error';
  /** The command's exit code; null when it did not exit by itself (timeout, signal, could not start). */
  exitCode: number | null;
  /** Why it blocked (`block` only). */
  reason: string | null;
  /** Context it adds: `hookSpecificOutput.additionalContext`, `additionalContext`, or plain stdout (some events). */
  additionalContext: string | null;
  /** What went wrong (`error` only). */
  error: string | null;
  durationMs: number;
}

export interface CommandOptions {
  cwd: string;
  /** Added to the server's environment (less its credentials, as for the agent's shell). */
  env?: Record<string, string>;
  signal?: AbortSignal;
}

/** Output kept per stream; the rest is dropped (a hook that prints megabytes is not a decision). */
const MAX_OUTPUT_BYTES = 1024 * 1024;
/** Longest reason or context taken from a hook (Claude Code caps hook strings at 10,000 characters). */
const MAX_TEXT = 10_000;
/** How long the output of a hook that exited may still arrive. */
const EXIT_GRACE_MS = 200;
export const DEFAULT_BLOCK_REASON = 'Blocked by hook';
/** Events whose plain (non-JSON) stdout is context, as in Claude Code. */
const PLAIN_STDOUT_IS_CONTEXT: ReadonlySet<HookEventName> = new Set(['UserPromptSubmit', 'SessionStart']);

/**
 * Runs a command hook: `bash -c <command>` in `cwd`, in its own process group, the event as JSON on stdin. Exit
 * code 2 blocks with stderr as the reason; exit code 0 with JSON on stdout blocks on `decision: "block"|"deny"`,
 * `hookSpecificOutput.permissionDecision: "deny"` or `continue: false` (except for Stop, where Claude Code's
 * `continue: false` means "stop now": the agent is let stop). Anything else that goes wrong never blocks. At
 * the timeout (or on abort) the whole process group is killed. Never rejects.
 */
export function runCommandHook(
  hook: CommandHook,
  event: HookEventName,
  input: unknown,
  options: CommandOptions,
): Promise<HookRunResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<HookRunResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({ ...result, durationMs: Date.now() - started });
    };
    const fail = (error: string, exitCode: number | null = null) =>
      finish({ outcome: 'error', exitCode, reason: null, additionalContext: null, error });

    const child = spawn('bash', ['-c', hook.command], {
      cwd: options.cwd,
      env: hookEnv(options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      killGroup();
      fail(`timed out after ${hook.timeoutSeconds} s`);
    }, hook.timeoutSeconds * 1000);
    const onAbort = () => {
      killGroup();
      fail('aborted');
    };
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });

    const stdout = collect(child.stdout);
    const stderr = collect(child.stderr);
    child.on('error', (error) => fail(`could not start: ${error.message}`));
    // A hook that does not read its stdin closes it early: that is not an error.
    child.stdin.on('error', () => undefined);
    child.stdin.end(JSON.stringify(input));
    const done = (code: number | null, signal: NodeJS.Signals | null) => {
      if (code === null) return fail(`killed by ${signal ?? 'a signal'}`);
      finish(interpret(event, code, stdout(), stderr()));
    };
    child.on('close', done);
    // A process the hook left in the background may hold its stdout open: once the hook itself has exited,
    // its output is taken after a short grace instead of waiting for the timeout.
    child.on('exit', (code, signal) => setTimeout(() => done(code, signal), EXIT_GRACE_MS).unref());
  });
}

/** The decision of a hook that exited with `code`. */
export function interpret(
  event: HookEventName,
  code: number,
  stdout: string,
  stderr: string,
): Omit<HookRunResult, 'durationMs'> {
  const none = { reason: null, additionalContext: null, error: null };
  if (code === 2) {
    const reason = clip(stderr.trim()) || jsonReason(stdout) || DEFAULT_BLOCK_REASON;
    return { ...none, outcome: 'block', exitCode: 2, reason };
  }
  if (code !== 0) {
    const detail = stderr.trim() ? `: ${clip(stderr.trim()).slice(0, 500)}` : '';
    return { ...none, outcome: 'error', exitCode: code, error: `exit code ${code}${detail}` };
  }
  const text = stdout.trim();
  if (!text.startsWith('{')) {
    const context = text && PLAIN_STDOUT_IS_CONTEXT.has(event) ? clip(text) : null;
    return { ...none, outcome: 'allow', exitCode: 0, additionalContext: context };
  }
  let output: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    output = parsed as Record<string, unknown>;
  } catch (error) {
    return { ...none, outcome: 'error', exitCode: 0, error: `invalid JSON on stdout: ${(error as Error).message}` };
  }
  const specific = (isObject(output.hookSpecificOutput) ? output.hookSpecificOutput : {}) as Record<string, unknown>;
  const context = str(specific.additionalContext) ?? str(output.additionalContext);
  const decided = output.decision === 'block' || output.decision === 'deny' || specific.permissionDecision === 'deny';
  const stops = output.continue === false;
  // Claude Code: `continue: false` stops the agent. For Stop that is letting it stop, whatever `decision` says.
  const blocks = event === 'Stop' ? decided && !stops : decided || stops;
  if (!blocks) return { ...none, outcome: 'allow', exitCode: 0, additionalContext: context };
  const reason =
    str(output.reason) ?? str(specific.permissionDecisionReason) ?? str(output.stopReason) ?? DEFAULT_BLOCK_REASON;
  return { ...none, outcome: 'block', exitCode: 0, reason, additionalContext: context };
}

function jsonReason(stdout: string): string | null {
  try {
    const parsed = JSON.parse(stdout.trim()) as Record<string, unknown>;
    return isObject(parsed) ? str(parsed.reason) : null;
  } catch {
    return null;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A non-empty string value, clipped; null otherwise. */
function str(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? clip(value.trim()) : null;
}

function clip(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}

/** Reads a stream into memory up to `MAX_OUTPUT_BYTES`; the function returns what was read so far. */
function collect(stream: NodeJS.ReadableStream): () => string {
  const chunks: Buffer[] = [];
  let size = 0;
  stream.on('data', (chunk: Buffer) => {
    if (size >= MAX_OUTPUT_BYTES) return;
    chunks.push(chunk);
    size += chunk.length;
  });
  return () => Buffer.concat(chunks).toString('utf8');
}

/** The server's environment without its credentials (as for the agent's shell), plus `extra`. */
function hookEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !SERVER_ONLY.test(key)) env[key] = value;
  }
  return Object.assign(env, extra);
}
