import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type LaunchOptions, launchChromium } from './launch.ts';
import { BrowserProblem } from './observation.ts';
import { TabRegistry } from './tabs.ts';

export interface BrowserSessionOptions extends LaunchOptions {
  /** How long a navigation may take before it becomes an error observation (default 30 s). */
  navigationTimeoutMs?: number;
  /** How long a click or typing waits for its element to be ready (default 10 s). */
  actionTimeoutMs?: number;
  viewport?: { width: number; height: number };
  /**
   * The longest one action may take in all (default: both timeouts and 10 s more). Past it the browser is
   * taken as hung (a page stuck in a script never answers Playwright's calls) and closed.
   */
  actionDeadlineMs?: number;
}

export const DEFAULT_NAVIGATION_TIMEOUT_MS = 30_000;
export const DEFAULT_ACTION_TIMEOUT_MS = 10_000;
const DEFAULT_VIEWPORT = { width: 1280, height: 720 };

export const BROWSER_RESTARTED =
  'The browser had stopped (it crashed or was killed) and a new one was started: the tabs, cookies and ' +
  'storage of the old one are gone.';
export const BROWSER_REPLACED =
  'The previous browser had stopped answering and was closed; a new one was started: the tabs, cookies and ' +
  'storage of the old one are gone.';
export const TAB_CRASHED = 'The current tab had crashed; it was closed and a new blank tab was opened.';

/** What an action gets to work with: the browser's context, and a note for the LLM about what happened first. */
export interface SessionLease {
  context: BrowserContext;
  tabs: TabRegistry;
  /**
   * What the LLM should know besides the action's result: the browser (or the tab) had to be replaced first, a
   * page showed a dialog.
   */
  notices: string[];
  /** The current tab, opening a blank one when there is none; a crashed tab is replaced first. */
  page(): Promise<Page>;
}

/**
 * One Chromium for one conversation: started on the first browser action, restarted on the next action after
 * it crashed, closed with the conversation. Actions run one at a time, in the order they came.
 */
export class BrowserSession {
  readonly navigationTimeoutMs: number;
  readonly actionTimeoutMs: number;
  readonly actionDeadlineMs: number;
  readonly tabs = new TabRegistry();
  private browser: Browser | undefined;
  private context: BrowserContext | undefined;
  /** What the next action is told when the browser went away since the last one. */
  private lostNotice: string | undefined;
  private closed = false;
  private readonly crashed = new WeakSet<Page>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly lostListeners = new Set<() => void>();
  private idleNotices: string[] = [];
  private actionNotices: string[] | undefined;

  constructor(private readonly options: BrowserSessionOptions = {}) {
    this.navigationTimeoutMs = options.navigationTimeoutMs ?? DEFAULT_NAVIGATION_TIMEOUT_MS;
    this.actionTimeoutMs = options.actionTimeoutMs ?? DEFAULT_ACTION_TIMEOUT_MS;
    this.actionDeadlineMs = options.actionDeadlineMs ?? this.navigationTimeoutMs + this.actionTimeoutMs + 10_000;
  }

  /** True while a browser is up. */
  get running(): boolean {
    return this.browser?.isConnected() === true;
  }

  /**
   * Does `work` after every action queued before it, with the browser started. Work that outlives the action
   * deadline closes the browser (the work then fails) and is a problem for the LLM.
   */
  perform<T>(work: (lease: SessionLease) => Promise<T>): Promise<T> {
    const result = this.queue.then(async () => {
      if (this.closed) throw new BrowserClosedError();
      // Dialogs shown since the last action, and those shown during this one.
      const notices = this.idleNotices.splice(0);
      this.actionNotices = notices;
      const context = await this.ensureContext(notices);
      const running = work({ context, tabs: this.tabs, notices, page: () => this.currentPage(context, notices) });
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new HungBrowserError(this.actionDeadlineMs)), this.actionDeadlineMs);
      });
      try {
        return await Promise.race([running, deadline]);
      } catch (error) {
        if (error instanceof HungBrowserError) {
          running.catch(() => undefined);
          await this.abandon();
        }
        throw error;
      } finally {
        clearTimeout(timer);
        this.actionNotices = undefined;
      }
    });
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Told when the browser goes away without being closed (a crash). */
  onLost(listener: () => void): () => void {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  /** Opens a new tab and makes it current. */
  async openTab(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    this.tabs.setCurrent(page);
    return page;
  }

  /** Closes the browser at once (an action in progress fails), then waits for the queued actions to end. */
  async close(): Promise<void> {
    this.closed = true;
    await this.shutdown();
    await this.queue;
  }

  private async ensureContext(notices: string[]): Promise<BrowserContext> {
    if (this.context && this.browser?.isConnected()) return this.context;
    if (this.lostNotice) {
      notices.push(this.lostNotice);
      this.lostNotice = undefined;
    }
    await this.shutdown();
    const browser = await launchChromium(this.options);
    browser.on('disconnected', () => {
      if (this.browser !== browser) return;
      this.browser = undefined;
      this.context = undefined;
      this.tabs.clear();
      if (this.closed) return;
      this.lostNotice = BROWSER_RESTARTED;
      for (const listener of this.lostListeners) listener();
    });
    if (this.closed) {
      await browser.close();
      throw new BrowserClosedError();
    }
    const context = await browser.newContext({ viewport: this.options.viewport ?? DEFAULT_VIEWPORT });
    context.setDefaultNavigationTimeout(this.navigationTimeoutMs);
    context.setDefaultTimeout(this.actionTimeoutMs);
    // Tabs the page opens (target=_blank, window.open) get ids too.
    context.on('page', (page) => this.watch(page));
    this.browser = browser;
    this.context = context;
    return context;
  }

  private watch(page: Page): void {
    this.tabs.add(page);
    page.once('crash', () => this.crashed.add(page));
    // A dialog blocks its page until answered: accept it (a confirm() says yes) and tell the LLM.
    page.on('dialog', (dialog) => {
      const message = dialog.message().replace(/\s+/g, ' ').slice(0, 300);
      (this.actionNotices ?? this.idleNotices).push(
        `The page showed a ${dialog.type()} dialog${message ? `: "${message}"` : ''}; it was accepted.`,
      );
      dialog.accept().catch(() => undefined);
    });
  }

  private async currentPage(context: BrowserContext, notices: string[]): Promise<Page> {
    const current = this.tabs.current;
    if (current && !current.isClosed() && !this.crashed.has(current)) return current;
    if (current && this.crashed.has(current)) {
      notices.push(TAB_CRASHED);
      await current.close().catch(() => undefined);
    }
    return this.openTab(context);
  }

  /** Closes a browser that stopped answering; the next action starts a new one. */
  private async abandon(): Promise<void> {
    if (!this.browser) return;
    this.lostNotice = BROWSER_REPLACED;
    for (const listener of this.lostListeners) listener();
    await this.shutdown();
  }

  private async shutdown(): Promise<void> {
    this.idleNotices = [];
    const browser = this.browser;
    this.browser = undefined;
    this.context = undefined;
    this.tabs.clear();
    await browser?.close().catch(() => undefined);
  }
}

export class HungBrowserError extends BrowserProblem {
  constructor(deadlineMs: number) {
    super(
      `The browser did not answer within ${deadlineMs / 1000} s (a page may be stuck in a script), so it was closed. The next browser action starts a new one; the tabs, cookies and storage are gone.`,
    );
  }
}

export class BrowserClosedError extends BrowserProblem {
  constructor() {
    super('The browser is closed (the conversation was closed).');
  }
}
