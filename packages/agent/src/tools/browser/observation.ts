import type { ObservationOf } from '@bosun/protocol';
import { textContent } from '../observations.ts';
import type { ToolContext } from '../tool.ts';
import { firstLine } from './launch.ts';

export type BrowserObservation = ObservationOf<'BrowserObservation'>;

/** A problem the LLM caused or can act on (a stale index, no such tab); its message is the observation. */
export class BrowserProblem extends Error {}

export interface ObservationParts {
  text: string;
  isError?: boolean;
  /** What happened besides the result (a restarted browser, a dialog), put first. */
  notices?: string[];
  /** A PNG, base64. */
  screenshot?: string;
  fullOutputSaveDir?: string;
}

/** The observation of a browser action; its text is masked (secrets typed into pages never come back). */
export function browserObservation(parts: ObservationParts, context: ToolContext): BrowserObservation {
  const text = [...(parts.notices ?? []), parts.text].join('\n\n');
  return {
    kind: 'BrowserObservation',
    content: textContent(context.mask(text)),
    is_error: parts.isError ?? false,
    ...(parts.screenshot !== undefined ? { screenshot_data: parts.screenshot } : {}),
    ...(parts.fullOutputSaveDir !== undefined ? { full_output_save_dir: parts.fullOutputSaveDir } : {}),
  };
}

const PLAYWRIGHT_CALL = /^(page|locator|elementHandle|frame|browserContext|browser|jsHandle|mouse|keyboard)\.\w+:/;

/** Playwright's timeout (its `errors.TimeoutError`, known by name so Playwright loads only when a browser starts). */
export function isTimeoutError(error: unknown): boolean {
  return error instanceof Error && error.name === 'TimeoutError';
}

/**
 * What the LLM reads about an error of an action: our own problems as they are, Playwright's and Chromium's
 * errors (timeouts, navigation errors, a closed target) by their first line (the rest is Playwright's call
 * log), or undefined for a bug in Bosun's code (a TypeError and the like), which is let through.
 */
export function problemText(error: unknown): string | undefined {
  if (error instanceof BrowserProblem) return error.message;
  if (!(error instanceof Error)) return undefined;
  const message = firstLine(error.message);
  if (isTimeoutError(error) || PLAYWRIGHT_CALL.test(message)) return message;
  return error.constructor === Error ? message : undefined;
}
