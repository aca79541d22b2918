export { createAgentRunner } from './agent/agent-runner.ts';
export { type AgentServer, type AgentServerOptions, buildAgentServer } from './app.ts';
export { Conversation } from './conversations/conversation.ts';
export { type AgentRunner, idleRunner } from './conversations/runner.ts';
export { SecretsKeyError } from './store/sealed-secrets.ts';
export type { SecretsKeyOptions } from './store/secrets-key.ts';
export { CLOSE_AUTH_FAILED, CLOSE_INVALID_REQUEST, CLOSE_NOT_FOUND } from './routes/conversations/sockets.ts';
export { AgentServerConfig, agentServerOptions } from './config.ts';
export type { WebhookSettings } from './webhooks/sender.ts';
