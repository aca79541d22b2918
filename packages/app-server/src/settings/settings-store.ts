/** A user's stored settings: one JSON object, sealed at rest (it holds the API keys). */
export type StoredSettings = { [key: string]: unknown };

/** The part of the data layer's `SettingsRepository` the routes use. */
export interface SettingsStore {
  /** The user's stored settings, or undefined when they never stored any. */
  get(userId: string): Promise<StoredSettings | undefined>;
  /** Applies `patch` as a JSON merge patch (`null` removes a key) in one transaction; answers the result. */
  update(userId: string, patch: StoredSettings): Promise<StoredSettings>;
}
