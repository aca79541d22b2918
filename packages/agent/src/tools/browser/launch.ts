import type { Browser } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); Bosun never downloads a browser. */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Headless, and quiet: no sandbox (the agent's machine is the sandbox; Chromium's needs privileges containers
 * lack), no GPU, and none of the background traffic a desktop browser makes (updates, sync, QUIC probes).
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface LaunchOptions {
  executablePath?: string;
  /** Extra command-line switches (tests tag their browsers to find the process). */
  extraArgs?: string[];
}

/** Starts a headless Chromium; throws with a message that says what to install when it cannot. */
export async function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  const executablePath = options.executablePath ?? DEFAULT_CHROMIUM_PATH;
  try {
    // Loaded on first use: importing Playwright takes longer than the rest of the server's start-up.
    const { chromium } = await import('playwright-core');
    return await chromium.launch({
      executablePath,
      headless: true,
      args: [...CHROMIUM_ARGS, ...(options.extraArgs ?? [])],
      // Playwright's own signal handlers would kill the browser under the server's feet; the tool closes it.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
  } catch (error) {
    const reason = firstLine((error as Error).message);
    throw new Error(
      `Could not start Chromium (${executablePath}): ${reason}. Install it with \`apt-get install -y chromium\`.`,
    );
  }
}

export function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).trim();
}
