export { type AgentServer, type AgentServerOptions, buildAgentServer } from './app.ts';
export { Conversation } from './conversations/conversation.ts';
export type { AgentRunner } from './conversations/runner.ts';
export { CLOSE_AUTH_FAILED, CLOSE_INVALID_REQUEST, CLOSE_NOT_FOUND } from './routes/sockets.ts';
