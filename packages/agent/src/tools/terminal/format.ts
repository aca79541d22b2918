import { hostname, userInfo } from 'node:os';
import type { ObservationOf } from '@bosun/protocol';
import { textContent } from '../observations.ts';
import type { ToolContext } from '../tool.ts';
import { normalizeOutput, observationsDir, saveFullOutput, truncateMiddle } from './output.ts';

export type TerminalObservation = ObservationOf<'TerminalObservation'>;

/** What happened to one terminal action, before it becomes an observation. */
export interface TerminalReport {
  /** The action's command. */
  command: string;
  /** Raw terminal output. */
  output?: string;
  /** The command's exit code; -1 while it is still running (or when there is none). */
  exitCode: number;
  timeout?: boolean;
  isError?: boolean;
  /** Text before the output (e.g. "[Below is the output of the previous command.]\n"). */
  prefix?: string;
  /** Text after the output (timeout notes and the like), starting with a newline. */
  suffix?: string;
  /** The shell's working directory; when set, the text ends with `[Current working directory: ...]`. */
  cwd?: string;
  pid?: number;
}

const USERNAME = (() => {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? null;
  }
})();

/**
 * The observation for a report. Its text is what the LLM reads, as OpenHands renders it: prefix, output
 * (normalized, secrets masked, the middle cut out when longer than `maxOutputChars`, the full text then saved under
 * `<stateDir>/observations/`), suffix, `[Current working directory: ...]` and `[Command finished with exit code N]`.
 */
export async function terminalObservation(
  report: TerminalReport,
  context: ToolContext,
  maxOutputChars: number,
): Promise<TerminalObservation> {
  const output = context.mask(normalizeOutput(report.output ?? '')).trimEnd();
  let shown = output;
  let savedDir: string | null = null;
  if (output.length > maxOutputChars) {
    const dir = observationsDir(context.stateDir);
    let savedPath: string | undefined;
    try {
      savedPath = await saveFullOutput(dir, output);
      savedDir = dir;
    } catch {
      // The note then says only that the output was cut.
    }
    shown = truncateMiddle(output, maxOutputChars, savedPath);
  }
  const prefix = report.prefix ?? '';
  const suffix = report.suffix ?? '';
  let text = `${prefix}${shown}${suffix}`;
  if (report.cwd) text += `\n[Current working directory: ${report.cwd}]`;
  if (report.exitCode !== -1) text += `\n[Command finished with exit code ${report.exitCode}]`;
  return {
    kind: 'TerminalObservation',
    content: textContent(text.replace(/^\n+/, '')),
    is_error: report.isError ?? false,
    command: context.mask(report.command),
    exit_code: report.exitCode,
    timeout: report.timeout ?? false,
    metadata: {
      exit_code: report.exitCode,
      pid: report.pid ?? -1,
      username: USERNAME,
      hostname: hostname(),
      working_dir: report.cwd ?? null,
      py_interpreter_path: null,
      prefix,
      suffix,
    },
    full_output_save_dir: savedDir,
  };
}
