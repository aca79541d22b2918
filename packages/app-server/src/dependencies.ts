import { join } from 'node:path';
import type { AppServerConfig } from './config.ts';
import type { AppDependencies } from './server.ts';

export interface OpenedDependencies {
  dependencies: AppDependencies;
  /** What each one is, for a person: no secret, no password. */
  description: string[];
  close(): Promise<void>;
}

/** Opens what the configuration names, or the embedded defaults in the data directory. */
export async function openDependencies(config: AppServerConfig): Promise<OpenedDependencies> {
  const description = [`Database: SQLite ${join(config.data_dir, 'app.db')}`];
  return { dependencies: {}, description, close: async () => {} };
}
