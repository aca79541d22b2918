/** What a connection gives, in order: text frames, then one `closed`. */
export type Incoming =
  | { type: 'frame'; data: string }
  | { type: 'closed'; code: number; reason: string; error: Error | undefined };

export interface SocketConnection {
  /** The next frame, or how the connection ended (once it has, every call answers that). */
  next(): Promise<Incoming>;
  close(): void;
}

/** What a socket received and its reader has not taken yet, in order; once `closed` is taken, it is every answer. */
export class IncomingQueue {
  private readonly items: Incoming[] = [];
  private wake: (() => void) | undefined;
  private ended: Incoming | undefined;

  get length(): number {
    return this.items.length;
  }

  push(item: Incoming): void {
    this.items.push(item);
    this.wake?.();
    this.wake = undefined;
  }

  async next(): Promise<Incoming> {
    if (this.ended) return this.ended;
    while (this.items.length === 0) {
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
    const item = this.items.shift() as Incoming;
    if (item.type === 'closed') this.ended = item;
    return item;
  }
}
