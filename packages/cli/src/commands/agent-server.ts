import { AgentServerConfig, SecretsKeyError, agentServerOptions, buildAgentServer } from '@bosun/agent-server';
import { settingsHelp } from '../config/settings-help.ts';
import { type LoadedSettings, SOURCE_RANK } from '../config/settings.ts';
import { serverCommand } from '../server-command.ts';

/** How long stopping may take: runs are cancelled, tools and MCP servers closed, then the process exits anyway. */
const SHUTDOWN_DEADLINE_MS = 10_000;

const USAGE = `Usage: bosun agent-server [--host 127.0.0.1] [--port 8000] [--data-dir .bosun] [--config FILE] [...]

Starts the agent server and prints its URL. SIGTERM or SIGINT stops it within 10 s (runs are cancelled; a
second signal exits at once).

${settingsHelp(AgentServerConfig)}`;

const NO_MODEL_NOTICE = `
No default LLM is configured, so each conversation must bring its own "agent.llm".
To give the server a default model, start it with:
  BOSUN_LLM_MODEL=gpt-4o BOSUN_LLM_API_KEY=sk-... npx bosun agent-server
  (BOSUN_LLM_BASE_URL=http://host:port/v1 for any OpenAI-compatible server: LiteLLM, vLLM, Ollama;
   model names starting with anthropic/ or claude use the Anthropic API)
To watch the agent work without a model, run the demo (a scripted stand-in, not a real LLM):
  npx bosun demo

`;

export const agentServerCommand = serverCommand({
  name: 'agent-server',
  summary: 'Start the agent server (REST + WebSocket)',
  usage: USAGE,
  config: AgentServerConfig,
  async start(loaded) {
    const config = withOneSecretsKey(loaded);
    const server = await buildAgentServer(agentServerOptions(config));
    const address = await server.app.listen({ host: config.host, port: config.port });
    return { address, close: () => server.close() };
  },
  explain: (error) => (error instanceof SecretsKeyError ? { lines: [error.message], exitCode: 1 } : undefined),
  announce({ address }, { values: { data_dir: dataDir, llm_model: model } }, io) {
    io.stdout.write(`Bosun agent server listening on ${address.replace('[::1]', 'localhost')} (data in ${dataDir})\n`);
    io.stdout.write(model ? `Default model: ${model}\n` : NO_MODEL_NOTICE);
  },
  stopping: { deadlineMs: SHUTDOWN_DEADLINE_MS, doing: 'cancelling runs, ' },
});

/**
 * The secrets key given in the stronger place wins (`--secrets-key-file` over BOSUN_SECRETS_KEY); given both
 * ways in the same place, both go on and the server refuses them as ambiguous.
 */
function withOneSecretsKey({ values, sources }: LoadedSettings<AgentServerConfig>): AgentServerConfig {
  if (values.secrets_key === undefined || values.secrets_key_file === undefined) return values;
  const key = SOURCE_RANK[sources.secrets_key];
  const file = SOURCE_RANK[sources.secrets_key_file];
  if (key === file) return values;
  const { secrets_key, secrets_key_file, ...rest } = values;
  return key > file ? { ...rest, secrets_key } : { ...rest, secrets_key_file };
}
