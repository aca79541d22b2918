import { createHash } from 'node:crypto';
import type { SkillSummary, SkillsTableRow } from '@bosun/protocol';
import type { Cache } from '../cache/index.ts';
import type { SettingsStore } from '../identity/stores.ts';
import { type Marketplaces, disabledSkillsOf } from '../marketplaces/index.ts';

/** How long a user's skills, read from the marketplaces' repositories, are served without reading them again. */
export const SKILLS_CACHE_TTL_MS = 5 * 60_000;

export interface ConversationSkillsDeps {
  marketplaces: Pick<Marketplaces, 'registry' | 'table'>;
  settings: Pick<SettingsStore, 'get'>;
  /** Where the skills read are kept (shared by the replicas on Redis); none: read each time. */
  cache?: Pick<Cache, 'get' | 'set'> | undefined;
}

type Listed = Omit<SkillSummary, 'disabled'>;

/**
 * The skills a new conversation of `userId` acting in `orgId` loads: those of the plugins of its Auto-Load
 * marketplaces (instance < organization < personal, as composed for it), read as the Skills & Plugins table reads
 * them (each marketplace at its commit now; with `review`, the approved one). Skills are named by plugin
 * (`plugin:skill`); a command loads as the skill `plugin:command`, triggered by its slash command; a plugin's
 * agents are listed too (`plugin:agent`, type `agent`), so that a table shows what each plugin holds. Skills the
 * user turned off (by name, or by the short name every plugin skill of that name answers to) are marked `disabled`.
 *
 * Reading them fetches the repositories, so what is read is kept for `SKILLS_CACHE_TTL_MS` under the user, the
 * organization and the registrations read: a registration changed (or one more, or one less) is read at once;
 * a branch that moved shows once the entry expires. Skills read while a marketplace could not be read are not
 * kept. Without an Auto-Load marketplace nothing is fetched.
 */
export async function conversationSkills(
  { marketplaces, settings, cache }: ConversationSkillsDeps,
  userId: string,
  orgId: string | null,
): Promise<SkillSummary[]> {
  const entries = await marketplaces.registry.autoLoaded(userId, orgId);
  if (entries.length === 0) return [];
  const registrations = entries.map((e) => [
    e.scope,
    e.name,
    e.source,
    e.ref,
    e.repo_path,
    e.approved_ref,
    e.updated_at,
  ]);
  const digest = createHash('sha256').update(JSON.stringify(registrations)).digest('hex');
  const key = `skills-search:${userId}:${orgId ?? '-'}:${digest}`;
  // The cache is an optimization: one that does not answer leaves the skills read from the repositories.
  let listed = (await cache?.get(key).catch(() => undefined)) as Listed[] | undefined;
  if (!listed) {
    const { rows } = await marketplaces.table(userId, orgId);
    listed = listedSkills(rows);
    // A marketplace that could not be read (or read with problems) is read again next time.
    if (!rows.some((row) => row.kind === 'marketplace')) {
      await cache?.set(key, listed, { ttlMs: SKILLS_CACHE_TTL_MS }).catch(() => false);
    }
  }
  const disabled = new Set(disabledSkillsOf((await settings.get(userId)) ?? {}));
  const short = (skill: Listed) => skill.name.slice(skill.plugin.length + 1);
  return listed.map((skill) => ({ ...skill, disabled: disabled.has(skill.name) || disabled.has(short(skill)) }));
}

function listedSkills(rows: readonly SkillsTableRow[]): Listed[] {
  return rows
    .filter((row) => row.kind === 'plugin' && row.auto_load && row.resolved_ref !== null)
    .flatMap((row) => [
      ...row.skills.map((name) => listedOf(row, name, 'agentskills', null)),
      ...row.commands.map((command) => {
        const name = command.replace(/^\//, '');
        return listedOf(row, name, 'knowledge', [`/${name}`]);
      }),
      ...row.agents.map((agent) => listedOf(row, `${row.name}:${agent}`, 'agent', null)),
    ]);
}

function listedOf(row: SkillsTableRow, name: string, type: Listed['type'], triggers: string[] | null): Listed {
  return {
    name,
    type,
    source: row.scope,
    triggers,
    marketplace: row.marketplace,
    plugin: row.name,
    origin: 'marketplace',
    commit: row.resolved_ref,
  };
}
