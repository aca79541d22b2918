import { GitCache, type GitProviders } from '@bosun/agent';
import type { DirectoryPluginList } from '@bosun/protocol';
import { type Catalog, type CatalogPlugin, type DirectoryLocation, readCatalog } from './catalog.ts';

export interface PluginDirectoryOptions {
  /** null: no instance plugin marketplace is configured (the directory is empty). */
  location: DirectoryLocation | null;
  providers: GitProviders;
  /** Where fetched commits are kept. */
  cacheDir: string;
  /** How long a read catalog is served before the marketplace's ref is asked again (0: every time). */
  refreshMs: number;
  featured: readonly string[];
  baseUrl: () => string;
}

/** A search of the directory: text in a plugin's name, description or tags; a tag; featured ones only. */
export interface DirectorySearch {
  q?: string;
  tag?: string;
  featured?: boolean;
}

/**
 * The Plugin Directory: the plugins of the instance plugin marketplace, read through Git. The catalog is kept by
 * commit: after `refreshMs` the ref is resolved again and the plugins are read again only when it moved. A
 * marketplace that cannot be read keeps the last catalog read, with the problem said.
 */
export class PluginDirectory {
  private readonly git: GitCache;
  private catalog: Catalog | null = null;
  private readAt = 0;
  private reading: Promise<Catalog> | null = null;

  constructor(private readonly options: PluginDirectoryOptions) {
    this.git = new GitCache({ dir: options.cacheDir, providers: options.providers });
  }

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

  private async current(): Promise<Catalog | null> {
    const { location } = this.options;
    if (!location) return null;
    if (this.catalog && Date.now() - this.readAt < this.options.refreshMs) return this.catalog;
    this.reading ??= this.read(location).finally(() => {
      this.reading = null;
    });
    return this.reading;
  }

  private async read(location: DirectoryLocation): Promise<Catalog> {
    const previous = this.catalog;
    if (previous?.marketplace.commit) {
      // Cached by commit: the same commit is the same catalog.
      const commit = await this.git.resolve(location.source, location.ref).catch(() => null);
      if (commit === previous.marketplace.commit) {
        this.readAt = Date.now();
        return previous;
      }
    }
    const options = { cache: this.git, featured: this.options.featured, baseUrl: this.options.baseUrl() };
    const read = await readCatalog(location, options);
    const kept =
      read.marketplace.commit === null && previous
        ? { ...previous, marketplace: { ...previous.marketplace, problems: read.marketplace.problems } }
        : read;
    this.catalog = kept;
    this.readAt = Date.now();
    return kept;
  }
}
