import { randomUUID } from 'node:crypto';
import { type AgentServerClient, BosunApiError, BosunClientError } from '@bosun/client';
import type { AppConversationStartRequest, AppConversationStartTask, ProviderType } from '@bosun/protocol';
import type { JsonValue } from '../cache/index.ts';
import { conversationIdOf, hexOf } from '../conversation-ids.ts';
import type { StartTaskChange } from '../data/index.ts';
import { tokenVariable } from '../git/provider-urls.ts';
import type { AutoLoad } from '../marketplaces/index.ts';
import { disabledSkillsOf } from '../marketplaces/index.ts';
import { withPluginParameters } from '../plugin-directory/parameters.ts';
import type { Lease } from '../row-leases.ts';
import { type Sandbox, agentClient } from '../sandboxes/index.ts';
import { effectiveLlm } from '../settings/llm-defaults.ts';
import { startConversationInput, titleOf } from './agent-request.ts';
import type { ConversationDeps } from './deps.ts';
import { PendingMessages } from './pending-messages.ts';
import { redacted } from './redact.ts';
import { StartError, cloneRepository, workspaceOf } from './repository.ts';
import { maskedRequest, startTaskOf } from './start-request.ts';
import { TaskLeases } from './task-leases.ts';

/** Who starts a conversation: the user, and the organization the request acts in. */
export interface Starter {
  userId: string;
  orgId: string | null;
}

/** The channel a task's progress is published on. */
export const taskChannel = (id: string) => `start-tasks:${id}`;

/**
 * Start tasks: a start is answered at once with a WORKING task; the rest runs here in the background, each step
 * persisted and published (`taskChannel`), until READY or ERROR with a detail a person can act on.
 */
export class StartTasks {
  private readonly running = new Set<Promise<void>>();

  private constructor(
    private readonly deps: ConversationDeps,
    private readonly leases: TaskLeases,
  ) {}

  /** The service, once the tasks whose runner stopped are ERROR (and again every half lease: see TaskLeases). */
  static async open(deps: ConversationDeps, lease?: Lease): Promise<StartTasks> {
    return new StartTasks(deps, await TaskLeases.open(deps.repositories.startTasks, deps.log, lease));
  }

  /** `request` as it may start: its plugins' sources trusted and pinned (`PluginTrustRequiredError` otherwise). */
  admit(starter: Starter, request: AppConversationStartRequest): Promise<AppConversationStartRequest> {
    return this.deps.pluginTrust.admit(starter.userId, request);
  }

  /** A new WORKING task for `request` (not yet running: `run` it, once anyone who follows it listens). */
  async create(starter: Starter, request: AppConversationStartRequest): Promise<AppConversationStartTask> {
    const record = await this.deps.repositories.startTasks.create({
      id: randomUUID(),
      userId: starter.userId,
      status: 'WORKING',
      request: JSON.stringify(maskedRequest(request)),
    });
    return startTaskOf(record);
  }

  /** Runs the start of `task` in the background. */
  run(task: AppConversationStartTask, starter: Starter, request: AppConversationStartRequest): void {
    const run = this.execute(task.id, starter, request).finally(() => this.running.delete(run));
    this.running.add(run);
  }

  /** Calls `onTask` with each change of the task published from now on; answers how to stop. */
  follow(id: string, onTask: (task: AppConversationStartTask) => void): Promise<() => Promise<void>> {
    return this.deps.cache.subscribe(taskChannel(id), (message) => onTask(message as AppConversationStartTask));
  }

  /** Waits for the starts under way. */
  async close(): Promise<void> {
    this.leases.close();
    await Promise.all(this.running);
  }

  private async execute(taskId: string, starter: Starter, request: AppConversationStartRequest): Promise<void> {
    const secrets = Object.values(request.secrets ?? {});
    const release = this.leases.keep(taskId);
    try {
      await this.startConversation(taskId, starter, request, secrets);
    } catch (error) {
      const detail =
        error instanceof StartError
          ? error.message
          : error instanceof BosunClientError
            ? `The sandbox’s agent server failed (${error.method} ${error.path}): ${whyNot(error)}`
            : `The start failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`;
      const why = redacted(detail, secrets);
      // The log gets what the task says, not the error: an agent server's answer may quote what it was sent.
      if (!(error instanceof StartError)) this.deps.log.error({ taskId, why }, 'start task failed');
      await this.change(taskId, { status: 'ERROR', detail: why }).catch((failure) =>
        this.deps.log.error({ err: failure, taskId }, 'start task: could not record its error'),
      );
    } finally {
      release();
    }
  }

  private async startConversation(
    taskId: string,
    { userId, orgId }: Starter,
    request: AppConversationStartRequest,
    secrets: string[],
  ): Promise<void> {
    const { repositories } = this.deps;
    const id = (request.conversation_id && conversationIdOf(request.conversation_id)) || randomUUID();
    await this.change(taskId, { status: 'WAITING_FOR_SANDBOX' });
    const stored = (await repositories.settings.get(userId)) ?? {};
    const llm = effectiveLlm(stored, this.deps.llmDefaults);
    const model = request.llm_model ?? llm.model;
    if (!model) {
      throw new StartError(
        'No LLM is configured: set llm_model (and llm_api_key) in your settings (POST /api/v1/settings), ' +
          'or have the administrator set BOSUN_LLM_MODEL',
      );
    }
    if (await repositories.conversations.getOfAnyUser(id)) {
      throw new StartError(`A conversation with id ${id} exists already: leave conversation_id out to get a new one`);
    }
    // Asked of the marketplaces' hosts while the sandbox starts (a Git round trip each).
    const autoLoading = this.autoLoad(userId, orgId);
    const sandbox = await this.sandboxFor(userId, request.sandbox_id ?? null, id);
    if (sandbox.status !== 'RUNNING' || !sandbox.agentServerUrl || !sandbox.sessionApiKey) {
      // The task names the sandbox that did not start: its owner can read why, resume or delete it.
      await this.change(taskId, { sandbox_id: sandbox.id });
      throw new StartError(`The sandbox did not start: ${sandbox.statusDetail ?? 'no reason given'}`);
    }
    const agent = agentClient(sandbox.agentServerUrl, sandbox.sessionApiKey, this.deps.agentTimeoutMs ?? 120_000);
    const provider: ProviderType = request.git_provider ?? 'github';
    await this.change(taskId, { status: 'PREPARING_REPOSITORY', sandbox_id: sandbox.id });
    let workingDir: string;
    if (request.selected_repository) {
      const token = (await repositories.providerTokens.token(userId, provider))?.token ?? null;
      if (token) secrets.push(token);
      workingDir = await cloneRepository(agent, this.deps.gitUrls, {
        repository: request.selected_repository,
        branch: request.selected_branch ?? null,
        provider,
        token,
      });
    } else {
      workingDir = await workspaceOf(agent);
    }
    await this.change(taskId, { status: 'SETTING_UP_SKILLS' });
    const problems = await skillProblems(agent, workingDir);
    const autoLoaded = await autoLoading;
    problems.push(...autoLoaded.problems);
    await this.change(taskId, {
      status: 'STARTING_CONVERSATION',
      agent_server_url: sandbox.agentServerUrl,
      problems: JSON.stringify(problems),
    });
    const conversationSecrets = await this.secretsOf(userId, request);
    secrets.push(...Object.values(conversationSecrets));
    if (llm.apiKey) secrets.push(llm.apiKey);
    const now = new Date().toISOString();
    // The row comes first: the agent server's webhooks for the conversation find it.
    await repositories.conversations.create({
      id,
      user_id: userId,
      org_id: orgId,
      sandbox_id: sandbox.id,
      title: titleOf(request) ?? `Conversation ${hexOf(id).slice(0, 5)}`,
      selected_repository: request.selected_repository ?? null,
      selected_branch: request.selected_branch ?? null,
      git_provider: request.selected_repository ? provider : (request.git_provider ?? null),
      llm_model: model,
      created_at: now,
      updated_at: now,
    });
    let info: Awaited<ReturnType<AgentServerClient['startConversation']>>;
    try {
      info = await agent.startConversation(
        startConversationInput({
          id,
          workingDir,
          llm: { ...llm, model },
          request: withPluginParameters(request),
          secrets: conversationSecrets,
          marketplaces: autoLoaded.registrations,
          disabledSkills: disabledSkillsOf(stored),
        }),
      );
    } catch (error) {
      await repositories.conversations.delete(userId, id);
      throw new StartError(`The agent server did not start the conversation: ${whyNot(error)}`);
    }
    for (const plugin of info.resolved_plugins) {
      for (const problem of plugin.problems) {
        problems.push(`plugin ${plugin.source}: ${problem.severity}: ${problem.message}`);
      }
    }
    await repositories.conversations.update(userId, id, {
      execution_status: info.execution_status,
      ...(info.title ? { title: info.title } : {}),
      loaded_marketplaces: JSON.stringify(autoLoaded.loaded),
      loaded_plugins: JSON.stringify(info.resolved_plugins),
    });
    await this.change(taskId, { status: 'READY', app_conversation_id: id, problems: JSON.stringify(problems) });
    // After the initial message: what the user typed while the sandbox started, in order (a failure is logged).
    await new PendingMessages(this.deps)
      .afterReady(taskId, id)
      .catch((error) => this.deps.log.warn({ taskId, why: whyNot(error) }, 'pending messages: not delivered yet'));
  }

  /** The auto-loaded marketplaces; what goes wrong is a problem of the start, never its failure (never rejects). */
  private async autoLoad(userId: string, orgId: string | null): Promise<AutoLoad> {
    try {
      return (await this.deps.autoLoad?.(userId, orgId)) ?? { registrations: [], loaded: [], problems: [] };
    } catch (error) {
      return { registrations: [], loaded: [], problems: [`marketplaces: none auto-loaded: ${whyNot(error)}`] };
    }
  }

  /** The sandbox the conversation runs in: the caller's given one (resumed if need be), else a new one. */
  private async sandboxFor(userId: string, sandboxId: string | null, conversationId: string): Promise<Sandbox> {
    const { sandboxes, specs } = this.deps;
    let sandbox: Sandbox | undefined;
    if (sandboxId !== null) {
      sandbox = await sandboxes.get(userId, sandboxId);
      if (!sandbox) throw new StartError('Sandbox not found');
      if (sandbox.status === 'MISSING') {
        throw new StartError('The sandbox’s workspace no longer exists: start without sandbox_id for a new sandbox');
      }
      if (sandbox.status !== 'RUNNING') sandbox = await sandboxes.resume(userId, sandboxId);
    } else {
      const id = hexOf(conversationId);
      if (await sandboxes.get(userId, id)) {
        throw new StartError(`A sandbox with id ${id} exists already: pass it as sandbox_id to reuse it`);
      }
      sandbox = await sandboxes.start(specs[0] as (typeof specs)[number], userId, { id });
    }
    if (!sandbox) throw new StartError('Sandbox not found');
    return sandbox;
  }

  /** The user's custom secrets and provider tokens (`GITHUB_TOKEN`, ...), then the request's (which win). */
  private async secretsOf(userId: string, request: AppConversationStartRequest): Promise<Record<string, string>> {
    const { secrets, providerTokens } = this.deps.repositories;
    const merged: Record<string, string> = {};
    for (const { provider } of await providerTokens.list(userId)) {
      const token = await providerTokens.token(userId, provider);
      if (token) merged[tokenVariable(provider)] = token.token;
    }
    Object.assign(merged, await secrets.values(userId), request.secrets ?? {});
    return merged;
  }

  /** Persists a change of the task and publishes the task as it now is. */
  private async change(taskId: string, change: StartTaskChange): Promise<void> {
    const record = await this.deps.repositories.startTasks.update(taskId, change);
    if (!record) return;
    const task = startTaskOf(record);
    await this.deps.cache
      .publish(taskChannel(taskId), task as unknown as JsonValue)
      .catch((error) => this.deps.log.warn({ err: error, taskId }, 'start task: progress not published'));
  }
}

/** The errors and warnings of the skills the project would load (information about the merge left out). */
async function skillProblems(agent: AgentServerClient, projectDir: string): Promise<string[]> {
  try {
    const skills = await agent.getSkills({ load_public: false, load_org: false, project_dir: projectDir });
    return skills.diagnostics
      .filter((diagnostic) => diagnostic.severity !== 'info')
      .map((diagnostic) => `skill ${diagnostic.file}: ${diagnostic.severity}: ${diagnostic.message}`);
  } catch (error) {
    return [`skills could not be read: ${whyNot(error)}`];
  }
}

/** What an agent server's refusal says. */
export function whyNot(error: unknown): string {
  if (error instanceof BosunApiError) {
    const detail = typeof error.detail === 'string' ? error.detail : JSON.stringify(error.detail);
    return `${error.status} ${detail}`;
  }
  return error instanceof Error ? error.message : String(error);
}
