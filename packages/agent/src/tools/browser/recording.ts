import { type WriteStream, createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { RECORDING_HEADER, frameLine, recordingFooter } from './recording-player.ts';

/** Where a conversation's recordings are saved, inside its state directory (the agent server serves them). */
export const RECORDINGS_DIR = 'browser-recordings';

export function recordingsDir(stateDir: string): string {
  return join(stateDir, RECORDINGS_DIR);
}

/** At most this many frames a second are kept (the last frame of a burst is never lost). */
const MIN_FRAME_INTERVAL_MS = 100;
const MAX_FRAMES = 6_000;
const MAX_BYTES = 200 * 1024 * 1024;
const SCREENCAST = { format: 'jpeg', quality: 70, maxWidth: 1280, maxHeight: 720 } as const;

export interface RecordingSummary {
  file: string;
  name: string;
  frames: number;
  seconds: number;
  /** Frames left out because the recording reached its size limit. */
  dropped: number;
}

/**
 * Records what the current tab shows, with the DevTools screencast (JPEG frames as the page paints), into a
 * self-contained HTML player file. It follows the current tab when the agent switches or opens tabs.
 */
export class ScreencastRecorder {
  readonly file: string;
  readonly name: string;
  private readonly out: WriteStream;
  private readonly startedAt = Date.now();
  private cdp: CDPSession | undefined;
  /** The tab being recorded. */
  private page: Page | undefined;
  private frames = 0;
  private bytes = 0;
  private dropped = 0;
  private lastWrittenAt = 0;
  private pending: { at: number; data: string } | undefined;
  private pendingTimer: NodeJS.Timeout | undefined;
  private following: Promise<void> = Promise.resolve();
  private finished: Promise<RecordingSummary> | undefined;

  private constructor(
    dir: string,
    private readonly context: BrowserContext,
  ) {
    this.name = `recording-${new Date(this.startedAt).toISOString().replace(/[:.]/g, '-')}.html`;
    this.file = join(dir, this.name);
    this.out = createWriteStream(this.file);
    this.out.write(RECORDING_HEADER);
  }

  static async start(stateDir: string, context: BrowserContext, page: Page): Promise<ScreencastRecorder> {
    const dir = recordingsDir(stateDir);
    await mkdir(dir, { recursive: true });
    const recorder = new ScreencastRecorder(dir, context);
    await recorder.follow(page);
    return recorder;
  }

  /** Records `page` from now on (the current tab changed); undefined stops recording frames. */
  follow(page: Page | undefined): Promise<void> {
    this.following = this.following.then(async () => {
      if (this.finished) return;
      await this.detach();
      if (page && !page.isClosed()) await this.attach(page).catch(() => undefined);
    });
    return this.following;
  }

  /** Stops recording and completes the file. `note` is shown in the player (why it ended early). */
  stop(note = ''): Promise<RecordingSummary> {
    this.finished ??= this.finish(note);
    return this.finished;
  }

  private async attach(page: Page): Promise<void> {
    const cdp = await this.context.newCDPSession(page);
    this.cdp = cdp;
    this.page = page;
    cdp.on('Page.screencastFrame', (frame: { data: string; sessionId: number }) => {
      void cdp.send('Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => undefined);
      if (this.cdp === cdp) this.frame(frame.data);
    });
    await cdp.send('Page.startScreencast', SCREENCAST);
  }

  private async detach(): Promise<void> {
    const cdp = this.cdp;
    this.cdp = undefined;
    this.page = undefined;
    if (!cdp) return;
    await cdp.send('Page.stopScreencast').catch(() => undefined);
    await cdp.detach().catch(() => undefined);
  }

  private frame(data: string): void {
    const at = Date.now();
    if (at - this.lastWrittenAt >= MIN_FRAME_INTERVAL_MS) {
      this.write(at, data);
      return;
    }
    // Too soon after the last one: keep it, and write it unless a newer frame replaces it in time.
    this.pending = { at, data };
    this.pendingTimer ??= setTimeout(() => this.flushPending(), MIN_FRAME_INTERVAL_MS - (at - this.lastWrittenAt));
  }

  private flushPending(): void {
    clearTimeout(this.pendingTimer);
    this.pendingTimer = undefined;
    const pending = this.pending;
    this.pending = undefined;
    if (pending) this.write(pending.at, pending.data);
  }

  private write(at: number, data: string): void {
    if (this.frames >= MAX_FRAMES || this.bytes + data.length > MAX_BYTES) {
      this.dropped++;
      return;
    }
    this.lastWrittenAt = at;
    this.frames++;
    this.bytes += data.length;
    this.out.write(frameLine(at, data));
  }

  private async finish(note: string): Promise<RecordingSummary> {
    await this.following;
    const page = this.page;
    await this.detach();
    this.flushPending();
    // The last picture: what the tab shows now (frames of what an action just loaded may not have come yet).
    if (page && !page.isClosed()) {
      const shot = await page.screenshot({ type: 'jpeg', quality: SCREENCAST.quality }).catch(() => undefined);
      if (shot) this.write(Date.now(), shot.toString('base64'));
    }
    const limit = this.dropped
      ? `The recording reached its size limit; ${this.dropped} later frames were left out.`
      : '';
    await new Promise<void>((resolve, reject) => {
      this.out.once('error', reject);
      this.out.end(recordingFooter([note, limit].filter(Boolean).join(' ')), () => resolve());
    });
    return {
      file: this.file,
      name: this.name,
      frames: this.frames,
      seconds: Math.round((Date.now() - this.startedAt) / 100) / 10,
      dropped: this.dropped,
    };
  }
}
