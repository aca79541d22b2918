import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gitProvidersFromEnv } from '@bosun/agent';
import { type AgentServer, SecretsKeyError, type SecretsKeyOptions, buildAgentServer } from '@bosun/agent-server';
import type { Command } from '../command.ts';
import { closeWithin, untilStopped } from '../until-stopped.ts';

/** How long stopping may take: runs are cancelled, tools and MCP servers closed, then the process exits anyway. */
const SHUTDOWN_DEADLINE_MS = 10_000;

const USAGE = `Usage: bosun agent-server [--host 127.0.0.1] [--port 8000] [--data-dir .bosun] [--workspace-root DIR]
                           [--secrets-key-file FILE]

Starts the agent server and prints its URL. Settings come from the flags, else from
the environment (BOSUN_HOST, BOSUN_PORT, BOSUN_DATA_DIR, BOSUN_LOG_LEVEL), else the
defaults above. BOSUN_SESSION_API_KEYS (comma-separated) makes every /api/* request
need an X-Session-API-Key header. BOSUN_LLM_MODEL, BOSUN_LLM_BASE_URL and
BOSUN_LLM_API_KEY give conversations started without an agent a default model.
BOSUN_GIT_GITHUB_URL, BOSUN_GIT_GITLAB_URL, BOSUN_GIT_BITBUCKET_URL change the base URL of
github:, gitlab:, bitbucket: sources (skill repositories, plugins, marketplaces);
BOSUN_GIT_CACHE_DIR is where fetched commits are kept (default <data-dir>/git).
Secrets are sealed at rest with BOSUN_SECRETS_KEY (base64 of 32 bytes) or the key in
--secrets-key-file (BOSUN_SECRETS_KEY_FILE), else a key generated into <data-dir>/secrets.key;
BOSUN_SECRETS_KEY_PREVIOUS (comma-separated) re-seals data sealed with older keys.
--workspace-root (BOSUN_WORKSPACE_ROOT) keeps every conversation's working_dir inside DIR.
SIGTERM or SIGINT stops the server within 10 s (runs are cancelled; a second signal exits at once).`;

const NO_MODEL_NOTICE = `
No default LLM is configured, so each conversation must bring its own "agent.llm".
To give the server a default model, start it with:
  BOSUN_LLM_MODEL=gpt-4o BOSUN_LLM_API_KEY=sk-... npm start
  (BOSUN_LLM_BASE_URL=http://host:port/v1 for any OpenAI-compatible server: LiteLLM, vLLM, Ollama;
   model names starting with anthropic/ or claude use the Anthropic API)
To watch the agent work without a model, run the demo (a scripted stand-in, not a real LLM):
  npx bosun demo

`;

export const agentServerCommand: Command = {
  name: 'agent-server',
  summary: 'Start the agent server (REST + WebSocket)',
  usage: USAGE,
  async run(args, io) {
    let values: {
      host?: string;
      port?: string;
      'data-dir'?: string;
      'secrets-key-file'?: string;
      'workspace-root'?: string;
    };
    try {
      values = parseArgs({
        args,
        options: {
          host: { type: 'string' },
          port: { type: 'string' },
          'data-dir': { type: 'string' },
          'secrets-key-file': { type: 'string' },
          'workspace-root': { type: 'string' },
        },
      }).values;
    } catch (error) {
      io.stderr.write(`bosun agent-server: ${(error as Error).message}\n\n${USAGE}\n`);
      return 2;
    }
    const env = process.env;
    const host = values.host ?? env.BOSUN_HOST ?? '127.0.0.1';
    const portText = values.port ?? env.BOSUN_PORT ?? '8000';
    const port = Number(portText);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      io.stderr.write(`bosun agent-server: --port must be an integer from 0 to 65535, got '${portText}'\n`);
      return 2;
    }
    const dataDir = values['data-dir'] ?? env.BOSUN_DATA_DIR ?? '.bosun';
    const workspaceRoot = values['workspace-root'] ?? env.BOSUN_WORKSPACE_ROOT;
    const sessionApiKeys = (env.BOSUN_SESSION_API_KEYS ?? '')
      .split(',')
      .map((key) => key.trim())
      .filter(Boolean);
    const model = env.BOSUN_LLM_MODEL?.trim();
    const defaultLlm = model
      ? {
          model,
          ...(env.BOSUN_LLM_BASE_URL ? { base_url: env.BOSUN_LLM_BASE_URL } : {}),
          ...(env.BOSUN_LLM_API_KEY ? { api_key: env.BOSUN_LLM_API_KEY } : {}),
        }
      : undefined;
    // The flag wins over both variables; the two variables together are ambiguous (refused).
    const flagKeyFile = values['secrets-key-file'];
    const key = flagKeyFile ? undefined : env.BOSUN_SECRETS_KEY;
    const keyFile = flagKeyFile ?? env.BOSUN_SECRETS_KEY_FILE;
    const secretsKey: SecretsKeyOptions = {
      ...(key ? { key } : {}),
      ...(keyFile ? { keyFile } : {}),
      previousKeys: (env.BOSUN_SECRETS_KEY_PREVIOUS ?? '').split(',').filter((key) => key.trim()),
    };
    let server: AgentServer;
    try {
      server = await buildAgentServer({
        dataDir,
        sessionApiKeys,
        secretsKey,
        ...(defaultLlm ? { defaultLlm } : {}),
        logLevel: env.BOSUN_LOG_LEVEL ?? 'info',
        gitProviders: gitProvidersFromEnv(env),
        ...(env.BOSUN_GIT_CACHE_DIR ? { gitCacheDir: env.BOSUN_GIT_CACHE_DIR } : {}),
        ...(workspaceRoot ? { workspaceRoot: resolve(workspaceRoot) } : {}),
      });
    } catch (error) {
      if (!(error instanceof SecretsKeyError)) throw error;
      io.stderr.write(`bosun agent-server: ${error.message}\n`);
      return 1;
    }
    const address = await server.app.listen({ host, port });
    io.stdout.write(`Bosun agent server listening on ${address.replace('[::1]', 'localhost')} (data in ${dataDir})\n`);
    io.stdout.write(model ? `Default model: ${model}\n` : NO_MODEL_NOTICE);
    const signal = await untilStopped();
    io.stdout.write(
      `Stopping (${signal}): cancelling runs, at most ${SHUTDOWN_DEADLINE_MS / 1000} s (again to exit at once)\n`,
    );
    await closeWithin(
      () => server.close(),
      SHUTDOWN_DEADLINE_MS,
      (line) => io.stderr.write(`bosun agent-server: ${line}\n`),
    );
    return 0;
  },
};
