import type { JsonObject } from './merge.ts';

/** What a user's settings are stored as: one JSON object, sealed at rest (it holds the API keys). */
export interface StoredSettings extends JsonObject {}

export interface SettingsStore {
  /** The user's stored settings, or an empty object if they never saved any. */
  load(userId: string): Promise<StoredSettings>;
  save(userId: string, settings: StoredSettings): Promise<void>;
}
