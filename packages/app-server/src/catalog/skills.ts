import type { SkillSummary, SkillsTableRow } from '@bosun/protocol';
import type { Marketplaces } from '../marketplaces/index.ts';

/**
 * The skills a new conversation of `userId` acting in `orgId` loads: those of the plugins of its Auto-Load
 * marketplaces (instance < organization < personal, as composed for it), read as the Skills & Plugins table reads
 * them (each marketplace at its commit now; with `review`, the approved one). A command loads as the skill
 * `plugin:command`, triggered by its slash command. Skills the user turned off are listed, marked `disabled`.
 * Without an Auto-Load marketplace nothing is fetched.
 */
export async function conversationSkills(
  marketplaces: Pick<Marketplaces, 'registry' | 'table'>,
  userId: string,
  orgId: string | null,
): Promise<SkillSummary[]> {
  if ((await marketplaces.registry.autoLoaded(userId, orgId)).length === 0) return [];
  const table = await marketplaces.table(userId, orgId);
  const disabled = new Set(table.disabled_skills);
  return table.rows
    .filter((row) => row.kind === 'plugin' && row.auto_load && row.resolved_ref !== null)
    .flatMap((row) => [
      ...row.skills.map((name) => summaryOf(row, name, 'agentskills', null, disabled)),
      ...row.commands.map((command) => {
        const name = command.replace(/^\//, '');
        return summaryOf(row, name, 'knowledge', [`/${name}`], disabled);
      }),
    ]);
}

function summaryOf(
  row: SkillsTableRow,
  name: string,
  type: SkillSummary['type'],
  triggers: string[] | null,
  disabled: ReadonlySet<string>,
): SkillSummary {
  return {
    name,
    type,
    source: row.scope,
    triggers,
    marketplace: row.marketplace,
    plugin: row.name,
    disabled: disabled.has(name),
  };
}
