import {
  type GitCache,
  type LoadedSkills,
  type SkillProblem,
  fetchMarketplacePlugins,
  pluginSkills,
} from '@bosun/agent';
import type { RegisteredMarketplace } from '@bosun/protocol';

/**
 * The skills of the plugins registered marketplaces auto-load (for `POST /api/skills`): one layer per plugin, in
 * registration order, and a diagnostic for every error (a marketplace or plugin that cannot be fetched, an
 * entry that cannot be loaded, a name `auto_load` lists that the marketplace does not).
 */
export async function marketplaceSkills(
  registrations: readonly RegisteredMarketplace[],
  git: GitCache,
): Promise<{ layers: LoadedSkills[]; diagnostics: SkillProblem[] }> {
  const layers: LoadedSkills[] = [];
  const diagnostics: SkillProblem[] = [];
  for (const registration of registrations) {
    const { fetched, failures } = await fetchMarketplacePlugins(registration, git, () => undefined);
    for (const { plugin } of fetched) if (plugin) layers.push(await pluginSkills(plugin));
    for (const resolved of [...failures, ...fetched.map((f) => f.resolved)]) {
      for (const problem of resolved.problems) {
        if (problem.severity !== 'error') continue;
        diagnostics.push({
          file: `marketplace ${registration.name}${resolved.name ? `: plugin ${resolved.name}` : ''}`,
          field: null,
          severity: 'error',
          message: `${problem.path ? `${problem.path}: ` : ''}${problem.message}`,
          skipped: true,
        });
      }
    }
  }
  return { layers, diagnostics };
}
