/** Tasks run one after another per key (a pause of a sandbox never races its start), in parallel across keys. */
export class SerialQueues {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.then(task, task);
    const settled = next.catch(() => {});
    this.tails.set(key, settled);
    void settled.then(() => {
      if (this.tails.get(key) === settled) this.tails.delete(key);
    });
    return next;
  }

  /** Resolves once every task queued so far has ended. */
  async idle(): Promise<void> {
    await Promise.all(this.tails.values());
  }
}
