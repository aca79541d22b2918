import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { GitAppInstallationEventsTable, Tables } from '../tables.ts';

/** An event of the GitHub App's installations, as its webhook delivered it. */
export interface NewGitAppInstallationEvent {
  /** GitHub's id of the delivery (`X-GitHub-Delivery`). */
  deliveryId: string;
  /** `installation` or `installation_repositories`. */
  event: string;
  action: string;
  installationId: string;
  /** The organization or user the app is installed on. */
  account: string | null;
  /** `owner/name` of each repository the installation was given, or lost. */
  repositoriesAdded: string[];
  repositoriesRemoved: string[];
}

export interface GitAppInstallationEvent extends NewGitAppInstallationEvent {
  id: string;
  receivedAt: string;
}

const recordOf = (row: Selectable<GitAppInstallationEventsTable>): GitAppInstallationEvent => ({
  id: row.id,
  deliveryId: row.delivery_id,
  event: row.event,
  action: row.action,
  installationId: row.installation_id,
  account: row.account,
  repositoriesAdded: JSON.parse(row.repositories_added) as string[],
  repositoriesRemoved: JSON.parse(row.repositories_removed) as string[],
  receivedAt: row.received_at,
});

/** The GitHub App's installation events, one per delivery. */
export class GitAppEventsRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  /** Records `event`; false when its delivery was recorded already (GitHub delivers again what it doubts). */
  async record(event: NewGitAppInstallationEvent): Promise<boolean> {
    const result = await this.db
      .insertInto('git_app_installation_events')
      .values({
        id: randomUUID(),
        delivery_id: event.deliveryId,
        event: event.event,
        action: event.action,
        installation_id: event.installationId,
        account: event.account,
        repositories_added: JSON.stringify(event.repositoriesAdded),
        repositories_removed: JSON.stringify(event.repositoriesRemoved),
        received_at: new Date().toISOString(),
      })
      .onConflict((oc) => oc.column('delivery_id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** The events recorded (of one installation, when given), oldest first. */
  async list(installationId?: string): Promise<GitAppInstallationEvent[]> {
    let query = this.db.selectFrom('git_app_installation_events').selectAll();
    if (installationId !== undefined) query = query.where('installation_id', '=', installationId);
    const rows = await query.orderBy('received_at').orderBy('id').execute();
    return rows.map(recordOf);
  }
}
