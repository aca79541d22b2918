import { join } from 'node:path';
import { type ConnectionTimeouts, type LogFormatSetting, createHttpServer, installEdgeErrors } from '@bosun/http';
import { AgentSpec, parse } from '@bosun/protocol';
import { GitCache, type GitProviders } from '@bosun/sources';
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { createAgentRunner } from './agent/agent-runner.ts';
import { BashEventStore } from './bash/event-store.ts';
import { BashRunner } from './bash/runner.ts';
import { ConfirmationControl } from './conversations/confirmation.ts';
import { EventLog } from './conversations/event-log.ts';
import type { AgentRunner } from './conversations/runner.ts';
import { ConversationService } from './conversations/service.ts';
import { installSessionAuth } from './http/auth.ts';
import { installCors, installWebSocketOriginCheck, normalizeOrigin } from './http/cors.ts';
import { installOpenApi } from './openapi.ts';
import { askAgentRoutes } from './routes/conversations/ask-agent.ts';
import { condenseRoutes } from './routes/conversations/condense.ts';
import { controlRoutes } from './routes/conversations/control.ts';
import { conversationActionRoutes } from './routes/conversations/conversation-actions.ts';
import { conversationRoutes } from './routes/conversations/conversations.ts';
import { eventRoutes } from './routes/conversations/events.ts';
import { forkRoutes } from './routes/conversations/fork.ts';
import { loadPluginRoutes } from './routes/conversations/load-plugin.ts';
import { recordingRoutes } from './routes/conversations/recordings.ts';
import { socketRoutes } from './routes/conversations/sockets.ts';
import { healthRoutes } from './routes/health.ts';
import { hookRoutes } from './routes/hooks.ts';
import { modelRoutes } from './routes/models.ts';
import { notApplicableRoutes } from './routes/not-applicable.ts';
import { skillRoutes } from './routes/skills.ts';
import { toolRoutes } from './routes/tools.ts';
import { bashSocketRoutes } from './routes/workspace/bash-socket.ts';
import { bashRoutes } from './routes/workspace/bash.ts';
import { fileRoutes } from './routes/workspace/files.ts';
import { gitRoutes } from './routes/workspace/git.ts';
import type { SecretsKeyOptions } from './store/secrets-key.ts';
import { Store } from './store/store.ts';
import { warmUp } from './warm-up.ts';
import { WebhookCursors } from './webhooks/cursors.ts';
import { WebhookSender, type WebhookSettings } from './webhooks/sender.ts';

/** The tools of the default agent. */
export const DEFAULT_TOOLS = ['terminal', 'file_editor', 'task_tracker'];

export interface AgentServerOptions {
  dataDir: string;
  sessionApiKeys?: string[];
  /** Conversations idle this long are dropped from memory (they stay on disk). */
  idleTtlMs?: number;
  runner?: AgentRunner;
  /** The LLM of conversations started without an agent (from BOSUN_LLM_*); none means they must bring one. */
  defaultLlm?: { model: string; base_url?: string; api_key?: string };
  /** Log level for structured (pino) logs; none: no logs. */
  logLevel?: string;
  /** Where the logs go (default: standard output). */
  logStream?: { write(line: string): unknown };
  /** How the logs are written (default `auto`: readable on a terminal, JSON elsewhere). */
  logFormat?: LogFormatSetting;
  /** How long a client may take to send a request (default: `DEFAULT_TIMEOUTS`). */
  timeouts?: Partial<ConnectionTimeouts>;
  /** How long a conversation's plugins, skills and MCP servers may take to load (default 60 s). */
  setupTimeoutMs?: number;
  /** Pay the first conversation's cost before the server is ready (`warm-up.ts`); off by default for embedders. */
  warmUp?: boolean;
  /** Base URLs of `github:`, `gitlab:` and `bitbucket:` sources (skill repositories, plugins, marketplaces). */
  gitProviders?: GitProviders;
  /** Where fetched commits (skill repositories, plugins, marketplaces) are kept (default `<dataDir>/git`). */
  gitCacheDir?: string;
  /** The key that seals secrets at rest (default: generated into `<dataDir>/secrets.key`). */
  secretsKey?: SecretsKeyOptions;
  /**
   * When set, every conversation's `working_dir` must be inside this directory. It is also where the bash, file
   * and Git routes may reach (default: the server's working directory).
   */
  workspaceRoot?: string;
  /** When set, every committed event and each conversation's info are posted to the application. */
  webhooks?: WebhookSettings;
  /** Origins whose web pages may call the server (CORS); `*` for any. */
  allowCorsOrigins?: string[];
}

export interface AgentServer {
  app: FastifyInstance;
  service: ConversationService;
  /** The durable store under the service (for tests and benchmarks that look below the API). */
  store: Store;
  close(): Promise<void>;
}

/** Builds the agent server: opens the store, recovers interrupted conversations and registers every route. */
export async function buildAgentServer(options: AgentServerOptions): Promise<AgentServer> {
  const startedAt = Date.now();
  let ready = false;
  const sessionApiKeys = options.sessionApiKeys ?? [];
  if (options.webhooks) checkWebhookUrl(options.webhooks.baseUrl);
  const corsOrigins = (options.allowCorsOrigins ?? []).map(normalizeOrigin);
  const app = createHttpServer({
    logLevel: options.logLevel,
    logStream: options.logStream,
    logFormat: options.logFormat,
    timeouts: options.timeouts,
  });
  const store = new Store(options.dataDir, options.secretsKey);
  const webhooks = options.webhooks && webhookSender(options.webhooks, store, app, options.dataDir, sessionApiKeys);
  const service = new ConversationService(store, {
    idleTtlMs: options.idleTtlMs ?? 20 * 60_000,
    ...(webhooks ? { observer: webhooks } : {}),
  });
  const control = new ConfirmationControl(service, (error, id) =>
    app.log.error({ err: error, conversation_id: id }, 'confirmation deadline failed'),
  );
  // Skill repositories, plugins and marketplaces are fetched once per commit into the data directory.
  const git = new GitCache({
    dir: options.gitCacheDir ?? join(options.dataDir, 'git'),
    ...(options.gitProviders ? { providers: options.gitProviders } : {}),
  });
  const skills = {
    git,
    ...(options.gitProviders ? { providers: options.gitProviders } : {}),
  };
  const runner = control.wrap(
    options.runner ??
      createAgentRunner({
        store,
        dataDir: options.dataDir,
        ...(options.setupTimeoutMs !== undefined ? { setupTimeoutMs: options.setupTimeoutMs } : {}),
        onSetupTimeout: (id, what) =>
          app.log.warn({ conversation_id: id, what }, 'not loaded within conversation_setup_timeout: started without'),
        onCriticFailure: (id, failure) =>
          app.log.warn(
            {
              conversation_id: id,
              subject: failure.subject,
              tool_call_ids: failure.toolCallIds,
              reason: failure.reason,
            },
            'critique failed: no critic_result',
          ),
        // Hook runs leave no events (the event kinds are fixed): the log is where they are seen. A hook that
        // failed (exit code, bad JSON, timeout) never blocks; it is a warning.
        onHookRun: (id, record) =>
          app.log[record.outcome === 'error' ? 'warn' : 'info']({ conversation_id: id, hook: record }, 'hook ran'),
        // A plugin that cannot be fetched or read never stops a conversation (sources and messages are redacted).
        plugins: {
          ...skills,
          onLoaded: (id, plugins) =>
            app.log[plugins.some((p) => p.problems.some((x) => x.severity === 'error')) ? 'warn' : 'info'](
              { conversation_id: id, plugins },
              'plugins loaded',
            ),
        },
        // A skill that cannot be parsed or a repository that cannot be fetched never stops a conversation.
        skills: {
          ...skills,
          onProblems: (id, problems) => app.log.warn({ conversation_id: id, problems }, 'skill problems'),
        },
        // Never the server's env or headers: they hold secrets (the error is masked).
        onMcpServer: (id, record) =>
          app.log[record.outcome === 'failed' ? 'warn' : 'info'](
            { conversation_id: id, mcp: record },
            record.outcome === 'failed' ? 'MCP server failed to start' : 'MCP server started',
          ),
      }),
  );
  // The ConversationErrorEvent tells the client what failed; the log keeps the stack for whoever runs the server.
  runner.crashed = (conversation, error) =>
    app.log.error({ err: error, conversation_id: conversation.id }, 'run crashed');

  // Before authentication: a preflight carries no session key, and a refusal must still be readable.
  await installCors(app, corsOrigins);
  installSessionAuth(app, sessionApiKeys);
  await installOpenApi(app);
  await app.register(websocket);
  installWebSocketOriginCheck(app, corsOrigins);
  installEdgeErrors(app);

  const { defaultLlm } = options;
  const defaultAgent = defaultLlm
    ? () => parse(AgentSpec, { llm: { ...defaultLlm }, tools: DEFAULT_TOOLS.map((name) => ({ name })) })
    : undefined;
  const { workspaceRoot } = options;
  conversationRoutes(app, {
    service,
    runner,
    ...(defaultAgent ? { defaultAgent } : {}),
    ...(workspaceRoot ? { workspaceRoot } : {}),
  });
  eventRoutes(app, { service, runner });
  controlRoutes(app, { service, control });
  condenseRoutes(app, { service, runner });
  skillRoutes(app, skills);
  recordingRoutes(app, { service, dataDir: options.dataDir });
  socketRoutes(app, { service, runner, sessionApiKeys });
  toolRoutes(app);
  conversationActionRoutes(app, { service, runner });
  forkRoutes(app, { service, dataDir: options.dataDir });
  loadPluginRoutes(app, { service, ...skills });
  modelRoutes(app, { sessionApiKeys, startedAt, ...(defaultLlm ? { defaultModel: defaultLlm.model } : {}) });
  const bounds = { workspace: workspaceRoot ?? process.cwd(), dataDir: options.dataDir };
  const bashEvents = new BashEventStore(join(options.dataDir, 'bash-events.sqlite'));
  const bash = new BashRunner(bashEvents);
  // A running command keeps the server active (orchestrators reap idle sandboxes by `idle_time`).
  const lastActivityAt = () => Math.max(service.lastActivityAt, bash.lastActivityAt());
  healthRoutes(app, { startedAt, ready: () => ready, lastActivityAt });
  bashRoutes(app, { bash, events: bashEvents, bounds });
  bashSocketRoutes(app, { bash, events: bashEvents, bounds, sessionApiKeys });
  fileRoutes(app, { service, bounds });
  gitRoutes(app, { bounds });
  hookRoutes(app, { bounds });
  askAgentRoutes(app, { service });
  notApplicableRoutes(app);

  await service.recover();
  control.recover();
  webhooks?.resume((id) => service.get(id));
  service.startEvictions();
  if (options.warmUp) {
    const warming = Date.now();
    await warmUp(app, sessionApiKeys, DEFAULT_TOOLS).then(
      () => app.log.info({ ms: Date.now() - warming }, 'warmed up: the first conversation will not pay for it'),
      (error) => app.log.warn({ err: error }, 'warm-up failed: the first conversation pays its cost'),
    );
  }
  ready = true;
  return {
    app,
    service,
    store,
    async close() {
      // Commands first: a request waiting for one is answered (exit code -1) and lets the server close.
      await bash.close();
      await app.close();
      bashEvents.close();
      control.close();
      await service.close();
      // After the service: what stopping the runs recorded is posted too.
      await webhooks?.close();
      store.close();
    },
  };
}

/** Refuses a webhook base URL that is not http(s), or that a path cannot be appended to. */
function checkWebhookUrl(baseUrl: string): void {
  const url = URL.canParse(baseUrl) ? new URL(baseUrl) : undefined;
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.search || url.hash) {
    throw new Error('webhook_base_url: must be an http:// or https:// URL without a query or a fragment');
  }
}

/** The webhook sender, its cursors beside the log. */
function webhookSender(
  settings: WebhookSettings,
  store: Store,
  app: FastifyInstance,
  dataDir: string,
  sessionApiKeys: readonly string[],
): WebhookSender {
  return new WebhookSender(settings, {
    events: new EventLog(store),
    cursors: new WebhookCursors(join(dataDir, 'webhooks.sqlite')),
    logger: app.log,
    ...(sessionApiKeys[0] ? { sessionKey: sessionApiKeys[0] } : {}),
  });
}
