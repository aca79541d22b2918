import type { FastifyInstance } from 'fastify';
import type { AppServerConfig } from '../config.ts';

/** What a route reads of the server it is registered on: its configuration, and where it is reached. */
export interface RouteContext {
  config: AppServerConfig;
  /** Where people and sandboxes reach the server: `public_url`, else the address it listens on. */
  publicUrl(): string;
}

/**
 * Routes, as every route file exports them: registers them on `api` (under `/api/v1` when the server registers
 * them there, else at its root: sockets, proxies, health, aliases). A file whose routes need more than the
 * context exports a function of what they need that returns its `ApiRoutes`.
 */
export type ApiRoutes = (api: FastifyInstance, context: RouteContext) => void | Promise<void>;
