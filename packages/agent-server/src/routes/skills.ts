import { InputError } from '@bosun/http';
import type { SkillInfo, SkillOrigin, SkillRepository, SkillsRequest, SkillsResponse } from '@bosun/protocol';
import {
  type GitCache,
  type GitProviders,
  type LoadedSkills,
  type Skill,
  type SkillProblem,
  loadConversationSkills,
  mergeSkills,
  pluginReferenceProblems,
  redactCredentials,
} from '@bosun/sources';
import type { FastifyInstance } from 'fastify';
import { marketplaceSkills, namedPluginSkills } from './marketplace-skills.ts';
import { componentRef, validationResponse } from './params.ts';
import { projectCommit } from './project-commit.ts';

export interface SkillRouteDeps {
  git: GitCache;
  providers?: GitProviders;
}

/**
 * `POST /api/skills` (OpenHands' request and response): the skills a conversation with these inputs would load,
 * merged by the same precedence (sandbox < auto-loaded plugins < built-in < user < organization < project < the
 * plugins it names), with how many came from each source, the repositories and their commits, and every
 * diagnostic. Nothing here fails for a skill, a repository or a plugin: problems are diagnostics (a plugin
 * reference that names no repository is a 422, as at conversation start).
 */
export function skillRoutes(app: FastifyInstance, deps: SkillRouteDeps): void {
  app.post<{ Body: SkillsRequest }>(
    '/api/skills',
    {
      schema: {
        tags: ['Skills'],
        summary: 'The skills a conversation would load, with their sources and diagnostics',
        body: componentRef('SkillsRequest'),
        response: { 200: componentRef('SkillsResponse'), 422: validationResponse },
      },
    },
    async (request): Promise<SkillsResponse> => {
      const body = request.body;
      const references = (body.plugins ?? []).flatMap((plugin, index) =>
        pluginReferenceProblems(plugin, ['body', 'plugins', index], deps.providers),
      );
      if (references.length) throw new InputError(references);
      const diagnostics: SkillProblem[] = [];
      const orgConfigs = [...(body.org_configs ?? []), ...(body.org_config ? [body.org_config] : [])];
      const extraRepositories: SkillRepository[] = orgConfigs.map((config) => ({
        source: config.org_repo_url,
        scope: 'organization',
        ref: null,
      }));
      const loaded = await loadConversationSkills({
        workspace: body.project_dir ?? '.',
        context: {
          load_project_skills: body.load_project && body.project_dir != null,
          load_builtin_skills: body.load_builtin,
          skill_repositories: body.skill_repositories,
          disabled_skills: body.disabled_skills,
          registered_marketplaces: body.registered_marketplaces,
        },
        extraRepositories,
        git: deps.git,
        ...(deps.providers ? { providers: deps.providers } : {}),
        scopes: { user: body.load_user, organization: body.load_org },
      });
      if (body.load_project && body.project_dir == null) {
        diagnostics.push({
          file: 'project',
          field: 'project_dir',
          severity: 'info',
          message:
            'project skills are not loaded: no project_dir was given (the workspace directory whose AGENTS.md ' +
            'and .agents/skills to read; load_project false asks for none)',
        });
      }
      if (body.load_public) {
        diagnostics.push({
          file: 'public',
          field: null,
          severity: 'info',
          message: 'public skills are not loaded: this server has no network source of public skills',
        });
      }
      // Skills of auto-loaded marketplace plugins rank just above the sandbox's (OpenHands' order).
      const marketplaces = await marketplaceSkills(body.registered_marketplaces, deps.git);
      // Skills of the plugins the conversation names rank above all (a later plugin above an earlier one).
      const named = await namedPluginSkills(body.plugins ?? [], deps.git);
      diagnostics.push(...marketplaces.diagnostics, ...named.diagnostics);
      const merged = mergeSkills(
        [
          sandboxSkills(body.sandbox_config?.exposed_urls ?? []),
          ...marketplaces.layers,
          { skills: loaded.skills, problems: [] },
          ...named.layers,
        ],
        body.disabled_skills,
      );
      // `plugin` appears when plugins brought skills.
      const sources: Record<string, number> = { sandbox: 0, public: 0, builtin: 0, user: 0, org: 0, project: 0 };
      for (const skill of merged.skills) {
        const key = skill.source.scope === 'organization' ? 'org' : skill.source.scope;
        sources[key] = (sources[key] ?? 0) + 1;
      }
      const project = merged.skills.some((skill) => skill.source.scope === 'project')
        ? await projectCommit(body.project_dir ?? null)
        : null;
      return {
        skills: merged.skills.map((skill) => skillInfo(skill, project)),
        sources,
        diagnostics: [...loaded.problems, ...merged.problems, ...diagnostics].map((problem) => ({
          ...problem,
          file: redactCredentials(problem.file),
          message: redactCredentials(problem.message),
        })),
        repositories: loaded.repositories.map((repository) => ({
          ...repository,
          source: redactCredentials(repository.source),
        })),
      };
    },
  );
}

/** A skill as the API shows it (OpenHands' `SkillInfo`, plus the scope, origin and commit it came from). */
export function skillInfo(skill: Skill, projectCommit: string | null = null): SkillInfo {
  const triggers =
    skill.trigger?.type === 'keyword'
      ? skill.trigger.keywords
      : skill.trigger?.type === 'task'
        ? skill.trigger.triggers
        : [];
  return {
    name: skill.name,
    type: skill.format === 'agentskills' ? 'agentskills' : skill.trigger ? 'knowledge' : 'repo',
    content: skill.content,
    triggers,
    source: skill.file,
    description: skill.description,
    is_agentskills_format: skill.format === 'agentskills',
    disable_model_invocation: skill.disableModelInvocation,
    scope: skill.source.scope,
    ...originOf(skill, projectCommit),
  };
}

/** Where a skill came from, for people: which kind of source, which one, and at which commit. */
function originOf(skill: Skill, projectCommit: string | null): Pick<SkillInfo, 'origin' | 'origin_source' | 'commit'> {
  const { scope, repository, commit, marketplace } = skill.source;
  const shown = (source: string | undefined) => (source ? redactCredentials(source) : null);
  const at = (origin: SkillOrigin, source: string | null, sha: string | null) => ({
    origin,
    origin_source: source,
    commit: sha,
  });
  switch (scope) {
    case 'organization':
      return at('organization_repository', shown(repository), commit ?? null);
    case 'user':
      return at('user_repository', shown(repository), commit ?? null);
    case 'plugin':
      return marketplace
        ? at('marketplace', `${marketplace}: ${skill.source.origin}`, commit ?? null)
        : at('plugin', shown(repository) ?? skill.source.origin, commit ?? null);
    case 'project':
      return at('repository', skill.source.origin, projectCommit);
    case 'builtin':
      return at('builtin', null, null);
    default:
      return at('sandbox', null, null);
  }
}

/** OpenHands' sandbox skill: the URLs the sandbox exposes, always in the system prompt. */
function sandboxSkills(urls: readonly { name: string; url: string; port: number }[]): LoadedSkills {
  if (urls.length === 0) return { skills: [], problems: [] };
  const lines = urls.map((url) => `* ${url.url} (port ${url.port}, ${url.name})`);
  const content = [
    'The user has access to the following hosts for accessing a web application, each of which has a corresponding port:',
    ...lines,
    'When starting a web server, use the corresponding ports. You should also set any options to allow iframes and CORS requests, and allow the server to be accessed from any host (e.g. 0.0.0.0).',
  ].join('\n');
  const skill: Skill = {
    name: 'work_hosts',
    format: 'legacy',
    description: null,
    content,
    trigger: null,
    disableModelInvocation: false,
    userInvocable: false,
    license: null,
    compatibility: null,
    metadata: {},
    allowedTools: [],
    file: 'sandbox_config.exposed_urls',
    dir: null,
    resources: null,
    source: { scope: 'sandbox', origin: 'sandbox' },
  };
  return { skills: [skill], problems: [] };
}
