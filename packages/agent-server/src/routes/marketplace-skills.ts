import type { PluginProblem, RegisteredMarketplace, ResolvedPlugin } from '@bosun/protocol';
import {
  type GitCache,
  type LoadedSkills,
  type PluginReference,
  type SkillProblem,
  fetchMarketplacePlugins,
  fetchPlugin,
  pluginLabel,
  pluginSkills,
} from '@bosun/sources';

/** Skill layers of plugins for `POST /api/skills`, and a diagnostic for every error of a plugin. */
export interface PluginSkillLayers {
  layers: LoadedSkills[];
  diagnostics: SkillProblem[];
}

/**
 * The skills of the plugins registered marketplaces auto-load (for `POST /api/skills`): one layer per plugin, in
 * registration order, and a diagnostic for every error (a marketplace or plugin that cannot be fetched, an
 * entry that cannot be loaded, a name `auto_load` lists that the marketplace does not).
 */
export async function marketplaceSkills(
  registrations: readonly RegisteredMarketplace[],
  git: GitCache,
): Promise<PluginSkillLayers> {
  const layers: LoadedSkills[] = [];
  const diagnostics: SkillProblem[] = [];
  for (const registration of registrations) {
    const { fetched, failures } = await fetchMarketplacePlugins(registration, git, () => undefined);
    for (const { plugin, resolved } of fetched) {
      if (plugin) layers.push(fromPlugin(await pluginSkills(plugin), { ...resolved, marketplace: registration.name }));
    }
    for (const resolved of [...failures, ...fetched.map((f) => f.resolved)]) {
      const file = `marketplace ${registration.name}${resolved.name ? `: plugin ${resolved.name}` : ''}`;
      diagnostics.push(...errorDiagnostics(file, resolved.problems));
    }
  }
  return { layers, diagnostics };
}

/**
 * The skills of the plugins a conversation names (its start request's `plugins`, for `POST /api/skills`): one
 * layer per plugin, in their order, each at its `ref` (the commit the conversation loaded, when given one), and a
 * diagnostic for every error (a plugin that cannot be fetched or loaded).
 */
export async function namedPluginSkills(
  references: readonly PluginReference[],
  git: GitCache,
): Promise<PluginSkillLayers> {
  const fetched = await Promise.all(references.map((reference) => fetchPlugin(reference, { cache: git })));
  const layers = await Promise.all(
    fetched.flatMap(({ plugin, resolved }) =>
      plugin ? [pluginSkills(plugin).then((loaded) => fromPlugin(loaded, resolved))] : [],
    ),
  );
  const diagnostics = fetched.flatMap(({ resolved }) =>
    errorDiagnostics(`plugin ${pluginLabel(resolved)}`, resolved.problems),
  );
  return { layers, diagnostics };
}

/** A plugin's skills marked with where the plugin came from: its repository, its commit, its marketplace. */
function fromPlugin(loaded: LoadedSkills, resolved: ResolvedPlugin): LoadedSkills {
  const where = {
    repository: resolved.source,
    ...(resolved.resolved_ref ? { commit: resolved.resolved_ref } : {}),
    ...(resolved.marketplace ? { marketplace: resolved.marketplace } : {}),
  };
  return { ...loaded, skills: loaded.skills.map((skill) => ({ ...skill, source: { ...skill.source, ...where } })) };
}

function errorDiagnostics(file: string, problems: readonly PluginProblem[]): SkillProblem[] {
  return problems
    .filter((problem) => problem.severity === 'error')
    .map((problem) => ({
      file,
      field: null,
      severity: 'error',
      message: `${problem.path ? `${problem.path}: ` : ''}${problem.message}`,
      skipped: true,
    }));
}
