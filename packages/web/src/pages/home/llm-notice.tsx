import type { Settings } from '@bosun/protocol';
import { Link } from 'react-router';
import { Notice } from '../../ui/feedback.tsx';

/** What is missing for a conversation to start: no model, or a hosted model without a key. */
export function llmProblem(settings: Settings): string | null {
  if (!settings.llm_model) return 'No LLM is configured yet, so a conversation cannot start.';
  // A model at a base URL of its own (a local server) may need no key; a provider's hosted API does.
  if (!settings.llm_api_key_set && !settings.llm_base_url) {
    return `The model ${settings.llm_model} has no API key, so a conversation cannot start.`;
  }
  return null;
}

/** Says on the home page that the LLM is not set up, with the way to set it up, before a start fails on it. */
export function LlmNotice({ settings }: { settings: Settings | undefined }) {
  const problem = settings ? llmProblem(settings) : null;
  if (!problem) return null;
  return (
    <Notice tone="warning" title="Set up the LLM first.">
      {problem} <Link to="/settings/llm">Open the LLM settings</Link> to choose a model and give its API key.
    </Notice>
  );
}
