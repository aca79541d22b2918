import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BashEvent, BashEventPage, BashEventSearch } from '@bosun/protocol';

/**
 * The bash events, one JSON file each in `<dataDir>/bash_events` (as OpenHands keeps them): events are written
 * once and never change, one process writes them, and a file per event needs no schema, survives a restart and
 * is cleared by deleting files. The names sort in append order; all events are also held in memory for search.
 */
export class BashEventStore {
  private readonly events: BashEvent[] = [];
  private readonly byId = new Map<string, { event: BashEvent; file: string }>();
  private sequence = 0;

  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    for (const file of readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .sort()) {
      const event = JSON.parse(readFileSync(join(dir, file), 'utf8')) as BashEvent;
      this.index(event, file);
      this.sequence = Math.max(this.sequence, Number.parseInt(file, 10) || 0);
    }
  }

  append(event: BashEvent): void {
    this.sequence += 1;
    const file = `${String(this.sequence).padStart(12, '0')}_${event.kind}_${event.id}.json`;
    const path = join(this.dir, file);
    writeFileSync(`${path}.tmp`, JSON.stringify(event));
    renameSync(`${path}.tmp`, path);
    this.index(event, file);
  }

  get(id: string): BashEvent | undefined {
    return this.byId.get(normalizeId(id))?.event;
  }

  all(): readonly BashEvent[] {
    return this.events;
  }

  /** Deletes every event; returns how many there were. */
  clear(): number {
    const count = this.events.length;
    for (const { file } of this.byId.values()) rmSync(join(this.dir, file), { force: true });
    this.events.length = 0;
    this.byId.clear();
    return count;
  }

  /** A page of the events that match; null when `page_id` names none of them. */
  search(query: BashEventSearch): BashEventPage | null {
    const commandId = query.command_id__eq ? normalizeId(query.command_id__eq) : undefined;
    const since = query.timestamp__gte ? utcMillis(query.timestamp__gte) : undefined;
    const until = query.timestamp__lt ? utcMillis(query.timestamp__lt) : undefined;
    const matches = this.events.filter((event) => {
      if (query.kind__eq && event.kind !== query.kind__eq) return false;
      if (commandId && (event.kind === 'BashOutput' ? event.command_id : event.id) !== commandId) return false;
      const at = Date.parse(event.timestamp);
      if (since !== undefined && at < since) return false;
      if (until !== undefined && at >= until) return false;
      if (query.order__gt !== undefined && !(event.kind === 'BashOutput' && event.order > query.order__gt)) {
        return false;
      }
      return true;
    });
    if (query.sort_order === 'TIMESTAMP_DESC') matches.reverse();
    const from = query.page_id ? matches.findIndex((event) => event.id === normalizeId(query.page_id ?? '')) : 0;
    if (from < 0) return null;
    const items = matches.slice(from, from + query.limit);
    return { items, next_page_id: matches[from + query.limit]?.id ?? null };
  }

  private index(event: BashEvent, file: string): void {
    this.events.push(event);
    this.byId.set(event.id, { event, file });
  }
}

/** Ids are 32 hex digits; a dashed UUID names the same event. */
export function normalizeId(id: string): string {
  return id.replaceAll('-', '').toLowerCase();
}

/** A timestamp without a zone is UTC, as the events' own are. */
function utcMillis(value: string): number {
  return Date.parse(/(Z|[+-]\d{2}:?\d{2})$/i.test(value) ? value : `${value}Z`);
}
