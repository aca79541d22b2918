import { posix } from 'node:path';
import { type AgentServerClient, BosunApiError, BosunTooLargeError } from '@bosun/client';
import { HttpError, InputError, NotFoundError } from '@bosun/http';
import {
  type AppConversationGitChangesQuery,
  type AppConversationGitDiffQuery,
  type AppConversationHooks,
  type AppConversationSkills,
  type ConversationInfo,
  type ConversationSkillRepository,
  type GitChange,
  type GitDiff,
  HOOK_EVENT_KEYS,
  type HookConfig,
  type HookMatcher,
  MAX_CONVERSATION_FILE_BYTES,
  type PluginSource,
  type ValidationError,
} from '@bosun/protocol';
import { sourcesLibrary } from '../marketplaces/git-access.ts';
import { conversationInSandbox, runningAgentOf } from './conversation-sandbox.ts';
import type { ConversationDeps } from './deps.ts';
import { whyNot } from './start-tasks.ts';

/** OpenHands' default of a hook's time limit, shown when the file gives none. */
const DEFAULT_HOOK_TIMEOUT = 60;

/** The conversation's agent server and what it says of the conversation (its working directory, its agent). */
interface ConversationAgent {
  agent: AgentServerClient;
  info: ConversationInfo;
  /** The app's row of the conversation (its selected repository, the skills repositories its start looked for). */
  row: { selected_repository: string | null; skill_repositories: string | null };
}

/**
 * A user's conversation's workspace, read through its sandbox's agent server: a file, the Git changes, the skills
 * and hooks of its agent. Another user's conversation is 404; a sandbox that does not run is 409 (410 once gone);
 * an agent server that fails is 502 saying what failed. Relative paths are relative to the conversation's working
 * directory (the cloned repository, else the sandbox's workspace), as the agent server reports it.
 */
export class ConversationWorkspace {
  constructor(private readonly deps: Pick<ConversationDeps, 'repositories' | 'sandboxes' | 'skillRepositories'>) {}

  /** The file's text: 404 when there is none, 413 when larger than the limit, 415 when it is not UTF-8 text. */
  async readFile(userId: string, id: string, filePath: string): Promise<string> {
    const { agent, info, row } = await this.agentOf(userId, id);
    const path = inWorkingDir(info, fromOpenHandsPath(filePath, info.workspace.working_dir, row.selected_repository));
    const { bytes } = await agent.downloadFile(path, { maxBytes: MAX_CONVERSATION_FILE_BYTES }).catch((error) => {
      if (error instanceof BosunTooLargeError) {
        throw new HttpError(413, `The file is larger than ${MAX_CONVERSATION_FILE_BYTES} bytes: ${filePath}`);
      }
      return refusal('read the file', ['query', 'file_path'], `File not found: ${filePath}`)(error);
    });
    const text = bytes.includes(0) ? undefined : utf8(bytes);
    if (text === undefined) throw new HttpError(415, `The file is not UTF-8 text: ${filePath}`);
    return text;
  }

  /** The files of the repository at `path` (default: the working directory) that differ from `ref`. */
  async gitChanges(userId: string, id: string, query: AppConversationGitChangesQuery): Promise<GitChange[]> {
    const { agent, info } = await this.agentOf(userId, id);
    const path = inWorkingDir(info, query.path ?? '.');
    return agent
      .get('/api/git/changes', { query: { path, ref: query.ref } })
      .catch(refusal('read the Git changes', ['query', 'path']));
  }

  /** The file at `path` as it is and at `ref` (default HEAD). */
  async gitDiff(userId: string, id: string, query: AppConversationGitDiffQuery): Promise<GitDiff> {
    const { agent, info } = await this.agentOf(userId, id);
    const path = inWorkingDir(info, query.path);
    const at = query.ref === undefined ? {} : { ref: query.ref };
    return agent
      .get('/api/git/diff', { query: { path, ...at } })
      .catch(refusal('read the Git diff', ['query', 'path']));
  }

  /**
   * The skills the conversation's agent loads: its working directory's and those of the skill sources its agent
   * was started with (repositories, marketplaces, built-in, the plugins it names; less the disabled ones), merged
   * by its agent server.
   */
  async skills(userId: string, id: string): Promise<AppConversationSkills> {
    const { agent, info, row } = await this.agentOf(userId, id);
    const context = info.agent.agent_context;
    const recorded = context?.skill_repositories ?? [];
    // Read with the user's tokens now: the commits are in the sandbox's cache unless it lost them.
    const record = row.skill_repositories ? (JSON.parse(row.skill_repositories) as ConversationSkillRepository[]) : [];
    const readable = (await this.deps.skillRepositories?.withCredentials(userId, recorded, [], record)) ?? recorded;
    const loaded = await agent
      .post('/api/skills', {
        body: {
          load_public: false,
          load_project: context?.load_project_skills ?? true,
          load_builtin: context?.load_builtin_skills ?? false,
          project_dir: info.workspace.working_dir,
          skill_repositories: readable,
          disabled_skills: context?.disabled_skills ?? [],
          registered_marketplaces: context?.registered_marketplaces ?? [],
          plugins: namedPlugins(info),
        },
      })
      .catch(refusal('read the skills'));
    const shown = await repositoryLabels(readable, recorded);
    return {
      skills: loaded.skills.map(({ name, type, content, triggers, origin, origin_source, commit }) => ({
        name,
        type,
        content,
        triggers,
        ...(origin ? { origin } : {}),
        ...(origin_source !== undefined ? { origin_source: origin_source && shown(origin_source) } : {}),
        ...(commit !== undefined ? { commit } : {}),
      })),
      repositories: record,
      diagnostics: loaded.diagnostics
        .filter((diagnostic) => diagnostic.severity !== 'info')
        .map((diagnostic) => ({ ...diagnostic, file: shown(diagnostic.file) })),
    };
  }

  /** The hooks the working directory's `.openhands/hooks.json` declares now, by event (OpenHands' names). */
  async hooks(userId: string, id: string): Promise<AppConversationHooks> {
    const { agent, info } = await this.agentOf(userId, id);
    const hooks = await agent
      .post('/api/hooks', { body: { project_dir: info.workspace.working_dir } })
      .catch(refusal('read the hooks'));
    return hooksOf(hooks.hook_config);
  }

  private async agentOf(userId: string, id: string): Promise<ConversationAgent> {
    const { sandbox, row } = await conversationInSandbox(this.deps, userId, id);
    const agent = runningAgentOf(id, sandbox);
    const info = await agent
      .get('/api/conversations/{conversation_id}', { params: { conversation_id: id } })
      .catch((error) => {
        throw agentFailure('read the conversation', error);
      });
    return { agent, info, row };
  }
}

/** The hooks of `config` by event, each event under both its names (and nested in `hooks`) gathered in one. */
export function hooksOf(config: HookConfig | null): AppConversationHooks {
  const hooks: AppConversationHooks['hooks'] = [];
  for (const [name, eventType] of Object.entries(HOOK_EVENT_KEYS)) {
    const key = name as keyof typeof HOOK_EVENT_KEYS;
    const matchers: HookMatcher[] = [
      config?.[key],
      config?.[eventType],
      config?.hooks?.[key],
      config?.hooks?.[eventType],
    ].flatMap((found) => found ?? []);
    if (matchers.length === 0) continue;
    hooks.push({
      event_type: eventType,
      matchers: matchers.map((matcher) => ({
        matcher: matcher.matcher ?? '*',
        hooks: matcher.hooks.map((hook) => ({
          type: hook.type ?? 'command',
          command: hook.command,
          timeout: hook.timeout ?? DEFAULT_HOOK_TIMEOUT,
          async: false,
        })),
      })),
    });
  }
  return { hooks };
}

/**
 * The plugins the conversation named at its start, each at the commit its agent loaded, so that the listing shows
 * what the agent has after the branch moved on (a start through the app names commits already; another client's
 * may name a branch). Its agent server records them, in the order named, after the marketplaces' plugins.
 */
function namedPlugins(info: ConversationInfo): PluginSource[] {
  const loaded = info.resolved_plugins.filter((plugin) => plugin.marketplace === null);
  return (info.plugins ?? []).map((plugin, index) => ({
    ...plugin,
    ref: loaded[index]?.resolved_ref ?? plugin.ref ?? null,
  }));
}

/**
 * Each repository as the agent server names it when it was given with credentials (redacted: `https://***@host/...`)
 * shown as the conversation records it (`github:acme/.agents`); anything else as it is.
 */
async function repositoryLabels(
  readable: readonly { source: string }[],
  recorded: readonly { source: string }[],
): Promise<(text: string) => string> {
  const { redactCredentials } = await sourcesLibrary();
  const labels = new Map(
    readable.map((repository, index) => [redactCredentials(repository.source), recorded[index]?.source]),
  );
  return (text) => labels.get(text) ?? text;
}

/** Where OpenHands' sandboxes keep the project: its clients name files under it. */
const OPENHANDS_PROJECT = '/workspace/project';

/**
 * `path` as OpenHands' clients give it, `/workspace/project/...`, in the conversation's workspace: OpenHands'
 * project root is where Bosun's sandbox holds its projects, the working directory itself, or the directory it is
 * cloned in when a repository is selected (`/workspace/project/<repo>` is then the working directory). Other paths
 * are as they are.
 */
export function fromOpenHandsPath(path: string, workingDir: string, repository: string | null): string {
  if (path !== OPENHANDS_PROJECT && !path.startsWith(`${OPENHANDS_PROJECT}/`)) return path;
  const root = repository ? posix.dirname(workingDir) : workingDir;
  return posix.join(root, path.slice(OPENHANDS_PROJECT.length));
}

function inWorkingDir(info: ConversationInfo, path: string): string {
  return posix.isAbsolute(path) ? path : posix.join(info.workspace.working_dir, path);
}

function utf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * What the agent server's refusal means to the caller: a path it has nothing at is a 404 (`missing`), a path
 * outside the workspace a 403, a path or ref it cannot take a 422 at the caller's parameter (`loc`, or `ref`);
 * anything else is its failure (502).
 */
function refusal(what: string, loc?: (string | number)[], missing?: string) {
  return (error: unknown): never => {
    if (error instanceof BosunApiError && loc) {
      if (error.status === 404 && missing) throw new NotFoundError(missing);
      if (error.status === 403) throw new HttpError(403, detailOf(error));
      if (error.status === 422 && Array.isArray(error.detail)) {
        throw new InputError((error.detail as ValidationError[]).map((item) => atCallers(item, loc)));
      }
    }
    throw agentFailure(what, error);
  };
}

function atCallers(item: ValidationError, loc: (string | number)[]): ValidationError {
  const param = item.loc.at(-1) === 'ref' ? ['query', 'ref'] : loc;
  return { loc: param, msg: String(item.msg), type: String(item.type) };
}

function detailOf(error: BosunApiError): string {
  return typeof error.detail === 'string' ? error.detail : JSON.stringify(error.detail);
}

/** 502: the agent server failed to do `what` (the fuzzer and clients read its `The agent server` prefix). */
function agentFailure(what: string, error: unknown): HttpError {
  return new HttpError(502, `The agent server did not ${what}: ${whyNot(error)}`);
}
