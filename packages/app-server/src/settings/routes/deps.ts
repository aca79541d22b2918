import type { IdentityRouteDeps } from '../../identity/routes/deps.ts';
import type { PersonalMarketplaces } from '../../marketplaces/index.ts';
import type { LlmDefaults } from '../llm-defaults.ts';

/** What the settings and LLM check routes need beside identity's: the instance's LLM, the users' marketplaces. */
export interface SettingsRouteDeps extends IdentityRouteDeps {
  llmDefaults: LlmDefaults;
  /** The users' own marketplaces as the settings carry them (absent: a server without marketplaces). */
  marketplaces?: PersonalMarketplaces;
}
