export { type AgentSource, type ConversationRef, agentClientOf, agentSourceOf } from './agent-source.ts';
export { EventCatchUp, type EventCatchUpOptions } from './catch-up.ts';
export { utcOf, validateEvents } from './incoming.ts';
export { EventIntake, type EventsLogger } from './intake.ts';
export { type EventsPublished, eventsChannel, publishEvents, rowsOf } from './live.ts';
export { StreamRelay } from './stream-relay.ts';
export {
  ConversationEvents,
  type ConversationEventsOptions,
  DEFAULT_EVENT_SWEEP_MS,
  webhookEnvironment,
  webhookEnvironmentOf,
} from './service.ts';
