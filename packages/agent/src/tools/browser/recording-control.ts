import { dirname } from 'node:path';
import { BrowserProblem, type ObservationParts } from './observation.ts';
import { type RecordingSummary, ScreencastRecorder } from './recording.ts';
import type { BrowserSession, SessionLease } from './session.ts';

/** `browser_start_recording` and `browser_stop_recording`: at most one recording at a time per browser. */
export class RecordingControl {
  private recorder: ScreencastRecorder | undefined;
  private unfollow: (() => void) | undefined;
  /** A recording the browser's crash ended, reported by the next stop. */
  private interrupted: Promise<RecordingSummary> | undefined;

  constructor(session: BrowserSession) {
    session.onLost(() => {
      if (this.recorder) this.interrupted = this.end('The browser stopped during the recording.');
    });
  }

  async start(lease: SessionLease, stateDir: string): Promise<string> {
    if (this.recorder) {
      throw new BrowserProblem(
        `A recording is already running (${this.recorder.name}); call browser_stop_recording first.`,
      );
    }
    this.interrupted = undefined;
    const recorder = await ScreencastRecorder.start(stateDir, lease.context, await lease.page());
    this.recorder = recorder;
    this.unfollow = lease.tabs.onCurrentChange((page) => void recorder.follow(page));
    return `Recording started (${recorder.name}). Call browser_stop_recording to save it.`;
  }

  async stop(): Promise<ObservationParts> {
    const wasInterrupted = !this.recorder && this.interrupted !== undefined;
    const summary = this.recorder ? await this.end('') : await this.interrupted;
    this.interrupted = undefined;
    if (!summary) throw new BrowserProblem('No recording is running; browser_start_recording starts one.');
    const ended = wasInterrupted ? 'The recording had ended when the browser stopped. ' : '';
    const limit = summary.dropped ? ` It reached its size limit: ${summary.dropped} later frames were left out.` : '';
    return {
      text: `${ended}Recording saved to ${summary.file}: ${summary.frames} frame${summary.frames === 1 ? '' : 's'} over ${summary.seconds} s.${limit} It is an HTML file (${summary.name}) that plays in any web browser; the user can download it.`,
      fullOutputSaveDir: dirname(summary.file),
    };
  }

  /** Saves a running recording (the browser is closing). */
  async close(): Promise<void> {
    if (this.recorder) await this.end('');
    await this.interrupted?.catch(() => undefined);
  }

  private end(note: string): Promise<RecordingSummary> {
    const recorder = this.recorder as ScreencastRecorder;
    this.recorder = undefined;
    this.unfollow?.();
    this.unfollow = undefined;
    return recorder.stop(note);
  }
}
