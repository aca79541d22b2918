import { type ValidationError, safeParse } from '@bosun/protocol';
import { type Static, Type } from '@sinclair/typebox';
import type { NewGitAppInstallationEvent } from '../../data/index.ts';

/** The events of the app's installations it records; any other it is sent is acknowledged and dropped. */
export const INSTALLATION_EVENTS = ['installation', 'installation_repositories'] as const;
export type InstallationEventName = (typeof INSTALLATION_EVENTS)[number];

/** Text as the database can keep it (PostgreSQL's text cannot hold U+0000). */
const text = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: '^[^\\x00]+$' });
const Repository = Type.Object({ full_name: text(300) });
const Repositories = Type.Array(Repository, { maxItems: 10_000 });

/** What the server reads of an installation event's payload (GitHub sends more, which is left alone). */
const InstallationPayload = Type.Object({
  action: text(100),
  installation: Type.Object({
    id: Type.Union([Type.Integer({ minimum: 1 }), Type.String({ pattern: '^[0-9]{1,20}$' })]),
    account: Type.Optional(Type.Object({ login: text(300) })),
  }),
  repositories: Type.Optional(Repositories),
  repositories_added: Type.Optional(Repositories),
  repositories_removed: Type.Optional(Repositories),
});
type InstallationPayload = Static<typeof InstallationPayload>;

export type ParsedInstallationEvent =
  | { ok: true; event: NewGitAppInstallationEvent }
  | { ok: false; errors: ValidationError[] };

/**
 * The installation event `payload` of a delivery says (a new installation's repositories as the ones it was given),
 * or where it is not one (each error under `body`).
 */
export function installationEventOf(
  deliveryId: string,
  event: InstallationEventName,
  payload: unknown,
): ParsedInstallationEvent {
  const parsed = safeParse(InstallationPayload, payload);
  if (!parsed.ok)
    return { ok: false, errors: parsed.errors.map((error) => ({ ...error, loc: ['body', ...error.loc] })) };
  const body: InstallationPayload = parsed.value;
  const names = (list: { full_name: string }[] | undefined) => (list ?? []).map(({ full_name }) => full_name);
  const added = event === 'installation' && body.action === 'created' ? body.repositories : body.repositories_added;
  return {
    ok: true,
    event: {
      deliveryId,
      event,
      action: body.action,
      installationId: String(body.installation.id),
      account: body.installation.account?.login ?? null,
      repositoriesAdded: names(added),
      repositoriesRemoved: names(body.repositories_removed),
    },
  };
}
