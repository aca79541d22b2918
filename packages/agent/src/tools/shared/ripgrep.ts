import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

/**
 * Which ripgrep a search tool uses: `'auto'` finds `rg` on `PATH` (once per process), a string is the path of
 * the binary, `false` always uses the pure Node implementation.
 */
export type RipgrepSetting = 'auto' | string | false;

let located: Promise<string | null> | undefined;

/** The ripgrep binary `setting` designates, or `null` when the pure Node implementation is to be used. */
export function ripgrepFor(setting: RipgrepSetting = 'auto'): Promise<string | null> {
  if (setting === false) return Promise.resolve(null);
  if (setting !== 'auto') return Promise.resolve(setting);
  located ??= findOnPath('rg');
  return located;
}

async function findOnPath(name: string): Promise<string | null> {
  for (const directory of (process.env.PATH ?? '').split(delimiter)) {
    if (!directory) continue;
    const candidate = join(directory, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** Arguments every search passes: no config file, no ignore files, hidden files and `node_modules` excluded. */
export const RIPGREP_COMMON_ARGS = ['--no-config', '--no-ignore', '--no-messages'];
/** The exclusions, given after any user glob because ripgrep lets later globs win. */
export const RIPGREP_EXCLUSIONS = ['--glob', '!.*', '--glob', '!node_modules'];

export type RipgrepResult =
  | { ok: true; lines: string[]; capped: boolean }
  | { ok: false; error: string; regexError: boolean };

/**
 * Runs ripgrep in `cwd` and collects at most `maxLines` lines of its output (it is stopped past that). Exit
 * code 1 means "nothing found"; 2 with no output is an error, whose text is returned.
 */
export function runRipgrep(
  binary: string,
  args: readonly string[],
  cwd: string,
  maxLines: number,
  signal?: AbortSignal,
): Promise<RipgrepResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], signal });
    const lines: string[] = [];
    let partial = '';
    let stderr = '';
    let capped = false;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (capped) return;
      const parts = (partial + chunk).split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) {
        if (line === '') continue;
        if (lines.length >= maxLines) {
          capped = true;
          child.kill();
          return;
        }
        lines.push(line);
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 10_000) stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (!capped && partial !== '' && lines.length < maxLines) lines.push(partial);
      if (capped || code === 0 || code === 1 || (code === 2 && lines.length > 0)) {
        resolve({ ok: true, lines, capped });
        return;
      }
      const error = stderr.trim() || `ripgrep exited with code ${code}`;
      resolve({
        ok: false,
        error,
        regexError: /regex parse error|error parsing regex|not allowed in a regex/i.test(error),
      });
    });
  });
}
