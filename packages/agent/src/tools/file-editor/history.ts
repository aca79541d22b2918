/** Edits remembered per file for `undo_edit` (as OpenHands: the last 10). */
export const MAX_HISTORY_PER_FILE = 10;

/**
 * What each file held before each edit, newest last; `null` means the file did not exist (it was created).
 * One history per tool instance, so one per conversation.
 */
export class EditHistory {
  private readonly entries = new Map<string, Array<string | null>>();

  constructor(private readonly limit = MAX_HISTORY_PER_FILE) {}

  push(path: string, previous: string | null): void {
    const stack = this.entries.get(path) ?? [];
    stack.push(previous);
    if (stack.length > this.limit) stack.shift();
    this.entries.set(path, stack);
  }

  /** The content before the last edit, `null` if the edit created the file, `undefined` if there is none. */
  pop(path: string): string | null | undefined {
    const stack = this.entries.get(path);
    if (!stack?.length) return undefined;
    const previous = stack.pop();
    if (stack.length === 0) this.entries.delete(path);
    return previous;
  }

  has(path: string): boolean {
    return (this.entries.get(path)?.length ?? 0) > 0;
  }
}
