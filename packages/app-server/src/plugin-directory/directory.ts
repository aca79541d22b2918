import type { DirectoryPluginList } from '@bosun/protocol';
import { type GitCache, mapLimit, readMarketplace } from '@bosun/sources';
import {
  type Catalog,
  type CatalogPlugin,
  type DirectoryLocation,
  catalogPlugin,
  directoryMarketplace,
  pendingPlugin,
} from './catalog.ts';

export interface PluginDirectoryOptions {
  /** null: no instance plugin marketplace is configured (the directory is empty). */
  location: DirectoryLocation | null;
  /** The Git cache, guarded as the Skills & Plugins table's is (configured providers only). */
  git: () => Promise<GitCache>;
  /** How long a read catalog is served before the marketplace's ref is asked again (0: every time). */
  refreshMs: number;
  featured: readonly string[];
  baseUrl: () => string;
  /** How many plugins are read at once (default 8). */
  concurrency?: number;
  /** How long a listing waits for a read under way before answering with what is ready (default 5 s). */
  deadlineMs?: number;
}

/** A search of the directory: text in a plugin's name, description or tags; a tag; featured ones only. */
export interface DirectorySearch {
  q?: string;
  tag?: string;
  featured?: boolean;
}

/** A read of the marketplace under way: the catalog as far as it got, and when it is complete. */
interface Reading {
  catalog: Catalog | null;
  done: Promise<Catalog>;
  /** When listings stop waiting for it (`deadlineMs` after it began): later ones answer at once. */
  deadline: number;
}

const STILL_READING = 'the marketplace is still being read';

/**
 * The Plugin Directory: the plugins of the instance plugin marketplace, read through Git as the Skills & Plugins
 * table reads them (the same host guard, the same fetch, the same problems). Plugins are read a few at once
 * (local entries first); listings wait for a read at most until `deadlineMs` after it began, then answer with
 * what is ready, the rest marked `loading` and filled in as they arrive. The catalog is kept by commit: after
 * `refreshMs` the ref is resolved again and the plugins are read again only when it moved. A marketplace that
 * cannot be read keeps the last catalog read, with the problem said.
 */
export class PluginDirectory {
  private catalog: Catalog | null = null;
  private readAt = 0;
  private reading: Reading | null = null;

  constructor(private readonly options: PluginDirectoryOptions) {}

  /** The instance plugin marketplace read (null: none configured). */
  get location(): DirectoryLocation | null {
    return this.options.location;
  }

  /** The plugins matching `search` (all without one). */
  async list(search: DirectorySearch = {}): Promise<DirectoryPluginList> {
    const catalog = await this.current();
    if (!catalog) return { marketplace: null, plugins: [] };
    const q = search.q?.trim().toLowerCase();
    const tag = search.tag?.trim().toLowerCase();
    const plugins = catalog.plugins
      .map(({ plugin }) => plugin)
      .filter((plugin) => !search.featured || plugin.featured)
      .filter((plugin) => !tag || plugin.tags.some((t) => t.toLowerCase() === tag))
      .filter(
        (plugin) =>
          !q ||
          [plugin.id, plugin.name, plugin.description ?? '', ...plugin.tags].some((t) => t.toLowerCase().includes(q)),
      );
    return { marketplace: catalog.marketplace, plugins };
  }

  /** One plugin by id, with its launch configuration. */
  async plugin(id: string): Promise<CatalogPlugin | undefined> {
    return (await this.current())?.plugins.find(({ plugin }) => plugin.id === id);
  }

  /** Reads the marketplace again now (an administrator's refresh). */
  async refresh(): Promise<DirectoryPluginList> {
    this.readAt = 0;
    return this.list();
  }

  /** The catalog to answer with: the one kept while fresh, else a read's, as far as it got by the deadline. */
  private async current(): Promise<Catalog | null> {
    const { location } = this.options;
    if (!location) return null;
    if (!this.reading && this.catalog && Date.now() - this.readAt < this.options.refreshMs) return this.catalog;
    this.reading ??= this.read(location);
    const reading = this.reading;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), Math.max(0, reading.deadline - Date.now()));
    });
    const done = await Promise.race([reading.done, deadline]).finally(() => clearTimeout(timer));
    if (done) return done;
    return reading.catalog ?? this.catalog ?? stillReading(location);
  }

  private read(location: DirectoryLocation): Reading {
    const reading: Reading = {
      catalog: null,
      done: Promise.resolve(null as unknown as Catalog),
      deadline: Date.now() + (this.options.deadlineMs ?? 5_000),
    };
    reading.done = this.readInto(location, reading).finally(() => {
      if (this.reading === reading) this.reading = null;
    });
    return reading;
  }

  private async readInto(location: DirectoryLocation, reading: Reading): Promise<Catalog> {
    const previous = this.catalog;
    const cache = await this.options.git();
    if (previous?.marketplace.commit && !previous.plugins.some(({ plugin }) => plugin.loading)) {
      // Cached by commit: the same commit is the same catalog.
      const commit = await cache.resolve(location.source, location.ref).catch(() => null);
      if (commit === previous.marketplace.commit) {
        this.readAt = Date.now();
        return previous;
      }
    }
    const read = await readMarketplace(location, cache);
    const marketplace = directoryMarketplace(location, read);
    if (marketplace.commit === null && previous) {
      // The marketplace cannot be read now: the last catalog stays, with the problem said.
      const kept = { ...previous, marketplace: { ...previous.marketplace, problems: marketplace.problems } };
      this.keep(kept);
      return kept;
    }
    const options = { cache, featured: this.options.featured, baseUrl: this.options.baseUrl() };
    const entries = read.parsed.entries;
    const catalog: Catalog = { marketplace, plugins: entries.map((entry) => pendingPlugin(entry, read, options)) };
    reading.catalog = catalog;
    // Entries in the marketplace's own repository are read from the commit just fetched: those first.
    const order = entries.map((entry, index) => ({ entry, index }));
    order.sort((a, b) => Number(a.entry.source?.type === 'git') - Number(b.entry.source?.type === 'git'));
    await mapLimit(order, this.options.concurrency ?? 8, async ({ entry, index }) => {
      catalog.plugins[index] = await catalogPlugin(entry, read, options);
    });
    this.keep(catalog);
    return catalog;
  }

  private keep(catalog: Catalog): void {
    this.catalog = catalog;
    this.readAt = Date.now();
  }
}

function stillReading(location: DirectoryLocation): Catalog {
  const { source, ref, repo_path } = location;
  return {
    marketplace: {
      name: null,
      description: null,
      source,
      ref,
      repo_path,
      commit: null,
      fetched_at: null,
      problems: [STILL_READING],
    },
    plugins: [],
  };
}
