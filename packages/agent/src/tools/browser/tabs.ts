import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';

/**
 * The open tabs of a browser, each named by a 4-character id (what `browser_switch_tab` and
 * `browser_close_tab` take), in the order they were opened, and which one is current.
 */
export class TabRegistry {
  private readonly byId = new Map<string, Page>();
  private readonly ids = new WeakMap<Page, string>();
  private currentId: string | undefined;
  private readonly listeners = new Set<(page: Page | undefined) => void>();

  /** Registers a tab (a no-op for one already known); returns its id. */
  add(page: Page): string {
    const known = this.ids.get(page);
    if (known) return known;
    const id = this.freshId();
    this.byId.set(id, page);
    this.ids.set(page, id);
    page.once('close', () => this.remove(page));
    return id;
  }

  idOf(page: Page): string | undefined {
    return this.ids.get(page);
  }

  get(id: string): Page | undefined {
    return this.byId.get(id.toLowerCase());
  }

  get current(): Page | undefined {
    return this.currentId ? this.byId.get(this.currentId) : undefined;
  }

  setCurrent(page: Page): void {
    const id = this.add(page);
    if (id === this.currentId) return;
    this.currentId = id;
    this.emit(page);
  }

  /** Every open tab with its id, in opening order. */
  list(): { id: string; page: Page }[] {
    return [...this.byId].map(([id, page]) => ({ id, page }));
  }

  get size(): number {
    return this.byId.size;
  }

  /** Forgets every tab (the browser is gone). */
  clear(): void {
    this.byId.clear();
    if (this.currentId !== undefined) {
      this.currentId = undefined;
      this.emit(undefined);
    }
  }

  /** Told when the current tab changes (undefined: there is none). */
  onCurrentChange(listener: (page: Page | undefined) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private remove(page: Page): void {
    const id = this.ids.get(page);
    if (!id || this.byId.get(id) !== page) return;
    this.byId.delete(id);
    if (this.currentId !== id) return;
    // The most recently opened tab left becomes current, as when a browser closes a tab.
    const last = [...this.byId.keys()].at(-1);
    this.currentId = last;
    this.emit(last ? this.byId.get(last) : undefined);
  }

  private emit(page: Page | undefined): void {
    for (const listener of this.listeners) listener(page);
  }

  private freshId(): string {
    for (;;) {
      const id = randomBytes(2).toString('hex');
      if (!this.byId.has(id)) return id;
    }
  }
}
