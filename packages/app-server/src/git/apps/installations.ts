/** How long an installation found for a repository answers for it (a webhook of the installation ends it sooner). */
const FOUND_TTL_MS = 5 * 60_000;

interface Found {
  installationId: string;
  until: number;
}

/**
 * Which installation of the app owns each repository, as the app's API says (`GET /repos/{owner}/{repo}/installation`),
 * remembered a few minutes. Only an installation found is remembered: one installed (or given the repository)
 * since is found at once.
 */
export class InstallationLookup {
  private readonly found = new Map<string, Found>();

  constructor(
    private readonly ask: (owner: string, repo: string) => Promise<string | null>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The installation that owns `owner/repo`, null when the app is not installed on it. */
  async installationOf(owner: string, repo: string): Promise<string | null> {
    const key = `${owner}/${repo}`.toLowerCase();
    const found = this.found.get(key);
    if (found && found.until > this.now()) return found.installationId;
    const installationId = await this.ask(owner, repo);
    if (installationId === null) this.found.delete(key);
    else this.found.set(key, { installationId, until: this.now() + FOUND_TTL_MS });
    return installationId;
  }

  /** Forgets what was found of an installation (deleted, suspended, or its repositories changed). */
  forget(installationId: string): void {
    for (const [key, found] of this.found) if (found.installationId === installationId) this.found.delete(key);
  }
}
