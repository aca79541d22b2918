import type { AgentServerClient } from '@bosun/client';
import type { AppConversationStartRequest, ConversationInfo, ProviderType, SecretSource } from '@bosun/protocol';
import type { JsonValue } from '../cache/index.ts';
import type { StartTaskChange, StartTaskRecord } from '../data/index.ts';
import { LEASE } from '../data/row-leases.ts';
import { hexOf } from '../events/conversation-ids.ts';
import { tokenVariable } from '../git/provider-urls.ts';
import { sourcesLibrary } from '../marketplaces/git-access.ts';
import type { AutoLoad } from '../marketplaces/index.ts';
import { disabledSkillsOf } from '../marketplaces/index.ts';
import { withPluginParameters } from '../plugin-directory/parameters.ts';
import { type Sandbox, agentClient } from '../sandboxes/index.ts';
import { effectiveLlm } from '../settings/llm-defaults.ts';
import { appUrlOf, sandboxLookupSecret } from '../settings/sandbox-secrets.ts';
import { startSkillRepositories } from '../skill-repositories/start.ts';
import { whyNot } from './agent-refusal.ts';
import { startConversationInput, titleOf } from './agent-request.ts';
import { cloneSelected } from './app-clone.ts';
import type { ConversationDeps } from './deps.ts';
import { PendingMessages } from './pending-messages.ts';
import { StartError, workspaceOf } from './repository.ts';
import { skillProblems } from './skill-problems.ts';
import { recordedStartFields } from './start-fields.ts';
import { startTaskOf } from './start-request.ts';
import { TaskTakenOver } from './task-takeover.ts';

/** Who starts a conversation: the user, and the organization the request acts in. */
export interface Starter {
  userId: string;
  orgId: string | null;
}

/** The channel a task's progress is published on. */
export const taskChannel = (id: string) => `start-tasks:${id}`;

/**
 * One run of a start task, by `runner` (the replica that created it, or one that took it over): each step is
 * persisted and published while the run holds the task (TaskTakenOver once it does not), and each is safe to run
 * again after a run stopped at any point (see task-takeover.ts): what the task's earlier run made is reused.
 */
export class StartRun {
  constructor(
    private readonly deps: ConversationDeps,
    private readonly task: StartTaskRecord,
    private readonly runner: string,
    /** Aborted when this replica handed the task over (it closes): the run writes nothing more. */
    private readonly handedOver?: AbortSignal,
  ) {}

  /** Starts the conversation (READY), or throws why not; what is secret of it is pushed onto `secrets`. */
  async start({ userId, orgId }: Starter, request: AppConversationStartRequest, secrets: string[]): Promise<void> {
    const { repositories } = this.deps;
    const id = this.task.conversation_id as string;
    await this.change({ status: 'WAITING_FOR_SANDBOX' });
    const stored = (await repositories.settings.get(userId)) ?? {};
    const llm = effectiveLlm(stored, this.deps.llmDefaults);
    const model = request.llm_model ?? llm.model;
    if (!model) {
      throw new StartError(
        'No LLM is configured: set llm_model (and llm_api_key) in your settings (POST /api/v1/settings), ' +
          'or have the administrator set BOSUN_LLM_MODEL',
      );
    }
    const existing = await repositories.conversations.getOfAnyUser(id);
    if (existing && !this.madeByTask(existing.user_id, existing.created_at)) {
      throw new StartError(`A conversation with id ${id} exists already: leave conversation_id out to get a new one`);
    }
    // Asked of the marketplaces' and skills repositories' hosts while the sandbox starts (a Git round trip each).
    const autoLoading = this.autoLoad(userId, orgId);
    const findingRepositories = startSkillRepositories(this.deps.skillRepositories, userId, request);
    const sandbox = await this.sandboxFor(userId, request.sandbox_id ?? null, id);
    if (sandbox.status !== 'RUNNING' || !sandbox.agentServerUrl || !sandbox.sessionApiKey) {
      // The task names the sandbox that did not start: its owner can read why, resume or delete it.
      await this.change({ sandbox_id: sandbox.id });
      throw new StartError(`The sandbox did not start: ${sandbox.statusDetail ?? 'no reason given'}`);
    }
    const agent = agentClient(sandbox.agentServerUrl, sandbox.sessionApiKey, this.deps.agentTimeoutMs ?? 120_000);
    const provider: ProviderType = request.git_provider ?? 'github';
    await this.change({ status: 'PREPARING_REPOSITORY', sandbox_id: sandbox.id });
    let workingDir: string;
    if (request.selected_repository) {
      const access = (await this.deps.gitTokens.token(userId, provider)) ?? null;
      if (access) secrets.push(access.token);
      // A complete clone an earlier run made is kept; a half-made one, or one still going, is cloned again.
      workingDir = await cloneSelected(agent, this.deps, secrets, {
        repository: request.selected_repository,
        branch: request.selected_branch ?? null,
        provider,
        access,
      });
    } else {
      workingDir = await workspaceOf(agent);
    }
    await this.change({ status: 'SETTING_UP_SKILLS' });
    const skillRepositories = await findingRepositories;
    // With the user's tokens in them: the sandbox fetches each commit once, the conversation's agent finds it there.
    const readable = await Promise.resolve(
      this.deps.skillRepositories?.withCredentials(
        userId,
        skillRepositories.repositories,
        secrets,
        skillRepositories.record,
      ) ?? [],
    ).catch(() => skillRepositories.repositories);
    const problems = [...skillRepositories.problems, ...(await skillProblems(agent, workingDir, readable))];
    const autoLoaded = await autoLoading;
    problems.push(...autoLoaded.problems);
    await this.change({
      status: 'STARTING_CONVERSATION',
      agent_server_url: sandbox.agentServerUrl,
      problems: JSON.stringify(problems),
    });
    const conversationSecrets = await this.secretsOf(userId, request, sandbox, secrets);
    if (llm.apiKey) secrets.push(llm.apiKey);
    const now = new Date().toISOString();
    // The row comes first: the agent server's webhooks for the conversation find it (an earlier run's is kept).
    if (!existing) {
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
        skill_repositories: skillRepositories.record.length ? JSON.stringify(skillRepositories.record) : null,
        ...recordedStartFields(request),
      });
    }
    let info: ConversationInfo;
    try {
      // Idempotent on the id: a conversation an earlier run started is answered as it is (its first message once).
      info = await agent.post('/api/conversations', {
        body: startConversationInput({
          id,
          workingDir,
          llm: { ...llm, model },
          request: withPluginParameters(request),
          secrets: conversationSecrets,
          marketplaces: autoLoaded.registrations,
          skillRepositories: skillRepositories.repositories,
          disabledSkills: disabledSkillsOf(stored),
          confirmationMode: stored.confirmation_mode === true,
        }),
      });
    } catch (error) {
      await repositories.conversations.delete(userId, id);
      throw new StartError(`The agent server did not start the conversation: ${whyNot(error)}`);
    }
    problems.push(...(await sourcesLibrary()).pluginProblemLines(info.resolved_plugins));
    await repositories.conversations.update(userId, id, {
      execution_status: info.execution_status,
      ...(info.title ? { title: info.title } : {}),
      loaded_marketplaces: JSON.stringify(autoLoaded.loaded),
      loaded_plugins: JSON.stringify(info.resolved_plugins),
    });
    await this.change({ status: 'READY', app_conversation_id: id, problems: JSON.stringify(problems) });
    // After the initial message: what the user typed while the sandbox started, in order (a failure is logged).
    await new PendingMessages(this.deps)
      .afterReady(this.task.id, id)
      .catch((error) =>
        this.deps.log.warn({ taskId: this.task.id, why: whyNot(error) }, 'pending messages: not delivered yet'),
      );
  }

  /**
   * Persists a change of the task while this run holds it (and was not handed over), and publishes the task as it now is (unless `publish`
   * is false: a change only a takeover reads, published with the next step).
   */
  async change(change: StartTaskChange, publish = true): Promise<void> {
    const taskId = this.task.id;
    if (this.handedOver?.aborted) throw new TaskTakenOver(taskId);
    const record = await this.deps.repositories.startTasks.updateAsRunner(taskId, this.runner, change);
    if (!record) throw new TaskTakenOver(taskId);
    if (!publish) return;
    await this.deps.cache
      .publish(taskChannel(taskId), startTaskOf(record) as unknown as JsonValue)
      .catch((error) => this.deps.log.warn({ err: error, taskId }, 'start task: progress not published'));
  }

  /** Whether a row of the user's was made by this task (by an earlier run of it): made after the task was. */
  private madeByTask(ownerId: string, createdAt: string): boolean {
    return ownerId === this.task.user_id && createdAt >= this.task.created_at;
  }

  /** The auto-loaded marketplaces; what goes wrong is a problem of the start, never its failure (never rejects). */
  private async autoLoad(userId: string, orgId: string | null): Promise<AutoLoad> {
    try {
      return (await this.deps.autoLoad?.(userId, orgId)) ?? { registrations: [], loaded: [], problems: [] };
    } catch (error) {
      return { registrations: [], loaded: [], problems: [`marketplaces: none auto-loaded: ${whyNot(error)}`] };
    }
  }

  /**
   * The sandbox the conversation runs in: the caller's given one (resumed if need be), else the task's own, its id
   * recorded on the task before it starts: one an earlier run of the task started is reused (resumed when it does
   * not run; a start that run left under way is settled by the sandboxes first), one gone is started anew.
   */
  private async sandboxFor(userId: string, sandboxId: string | null, conversationId: string): Promise<Sandbox> {
    const { sandboxes, specs } = this.deps;
    let sandbox: Sandbox | undefined;
    if (sandboxId !== null) {
      sandbox = await sandboxes.get(userId, sandboxId);
      if (!sandbox) throw new StartError('Sandbox not found');
      if (sandbox.status === 'MISSING') {
        throw new StartError('The sandbox’s workspace no longer exists: start without sandbox_id for a new sandbox');
      }
      if (sandbox.status !== 'RUNNING') sandbox = await this.resumed(userId, sandboxId);
    } else {
      const id = hexOf(conversationId);
      sandbox = await sandboxes.get(userId, id);
      if (sandbox && !this.madeByTask(sandbox.ownerId, sandbox.createdAt)) {
        throw new StartError(`A sandbox with id ${id} exists already: pass it as sandbox_id to reuse it`);
      }
      await this.change({ sandbox_id: id }, false);
      if (sandbox?.status === 'MISSING') {
        await sandboxes.delete(userId, id);
        sandbox = undefined;
      }
      if (!sandbox) sandbox = await sandboxes.start(specs[0] as (typeof specs)[number], userId, { id });
      else if (sandbox.status !== 'RUNNING') sandbox = await this.resumed(userId, id);
    }
    if (!sandbox) throw new StartError('Sandbox not found');
    return sandbox;
  }

  /**
   * The sandbox resumed; while another replica's start of it is under way (STARTING within its lease), resumed
   * again each heartbeat until that start ends or its lease runs out (then the sandboxes settle it).
   */
  private async resumed(userId: string, id: string): Promise<Sandbox | undefined> {
    const deadline = Date.now() + LEASE.leaseMs + LEASE.heartbeatMs;
    let sandbox = await this.deps.sandboxes.resume(userId, id);
    while (sandbox?.status === 'STARTING' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, LEASE.heartbeatMs / 3));
      sandbox = await this.deps.sandboxes.resume(userId, id);
    }
    return sandbox;
  }

  /**
   * The user's provider tokens (`GITHUB_TOKEN`, ...), their custom secrets, then the request's (later ones win);
   * what is secret of them is pushed onto `secrets`. A provider token is a LookupSecret the sandbox reads from the
   * app (its own session key authenticating it) whenever a tool needs it, so a token renewed meanwhile reaches the
   * conversation; it is given by value only while the app has no URL the sandbox reaches it at.
   */
  private async secretsOf(
    userId: string,
    request: AppConversationStartRequest,
    sandbox: Sandbox,
    secrets: string[],
  ): Promise<Record<string, SecretSource>> {
    const { secrets: custom, providerTokens } = this.deps.repositories;
    const merged: Record<string, SecretSource> = {};
    const base = appUrlOf(this.deps.publicUrl);
    for (const { provider } of await providerTokens.list(userId)) {
      const name = tokenVariable(provider);
      if (base && sandbox.sessionApiKey) {
        const description = `The ${provider} token, read from the app when used`;
        merged[name] = sandboxLookupSecret(
          base,
          { id: sandbox.id, sessionApiKey: sandbox.sessionApiKey },
          name,
          description,
        );
        secrets.push(sandbox.sessionApiKey);
        continue;
      }
      const token = await this.deps.gitTokens.token(userId, provider);
      if (token) merged[name] = token.token;
    }
    Object.assign(merged, await custom.values(userId), request.secrets ?? {});
    for (const secret of Object.values(merged)) if (typeof secret === 'string') secrets.push(secret);
    return merged;
  }
}
