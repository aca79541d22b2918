import type { LLMCheckRequest, LLMCheckResult } from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import { isInternalAddress } from '../../git/host-guard.ts';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { shape } from '../../http/replies.ts';
import { routeOptions } from '../../http/route-options.ts';
import { principalOf } from '../../identity/authenticate.ts';
import { rateLimited } from '../../identity/rate-limits.ts';
import { checkLlm } from '../llm-check.ts';
import { effectiveLlm } from '../llm-defaults.ts';
import type { SettingsRouteDeps } from './deps.ts';

const route = routeOptions('Settings');

/** How long the LLM has to answer a check. */
export const LLM_CHECK_TIMEOUT_MS = 20_000;

/**
 * `POST /api/v1/settings/llm/check`: one tiny completion with the caller's LLM (the body's fields over their
 * effective settings), answered as data: `ok` with the answer and latency, or the provider's error verbatim (the key
 * masked). The instance's key goes only to the instance's endpoint, as for conversations.
 */
export function llmCheckRoutes(
  { settings, llmDefaults, rateLimiter, rateLimits, serverOnLoopback }: SettingsRouteDeps,
  timeoutMs = LLM_CHECK_TIMEOUT_MS,
): ApiRoutes {
  return (app) => {
    app.post<{ Body: LLMCheckRequest | null | undefined }>(
      '/settings/llm/check',
      {
        ...route('Check an LLM: one tiny completion with the caller’s LLM settings, or the ones given', {
          description: [
            'Fields left out are the caller’s effective settings’ (a key left out: the stored one). Answers 200',
            'either way: `ok: false` carries the provider’s error as it gave it (its HTTP status in `status`), or',
            `why it could not be reached; the LLM has ${LLM_CHECK_TIMEOUT_MS / 1000} s. The key is never answered.`,
          ].join(' '),
          body: Type.Union([shape('LLMCheckRequest'), Type.Null()]),
          response: { 200: 'LLMCheckResult', 429: 'HTTPError' },
        }),
        // Each check may use the stored key: counted with the caller's secret writes.
        preHandler: rateLimited(rateLimiter, rateLimits, 'secret_write'),
      },
      async (request): Promise<LLMCheckResult> => {
        const body = request.body ?? {};
        const stored = (await settings.get(principalOf(request).userId)) ?? {};
        const llm = effectiveLlm(
          {
            ...stored,
            ...(body.model !== undefined ? { llm_model: body.model } : {}),
            ...(body.base_url !== undefined ? { llm_base_url: body.base_url?.trim() || null } : {}),
            ...(body.api_key ? { llm_api_key: body.api_key } : {}),
          },
          llmDefaults,
        );
        if (!llm.model) {
          return { ok: false, model: null, latency_ms: null, error: 'No LLM model is set: choose one first.' };
        }
        // The server calls where the person says: an internal address (the cloud's metadata, the database...) only
        // when the server listens on loopback alone (its users are on this machine) or it is the instance's own LLM.
        const internalAllowed = serverOnLoopback || (llm.baseUrl !== null && llm.baseUrl === llmDefaults.baseUrl);
        const admit = internalAllowed ? undefined : (address: string) => !isInternalAddress(address);
        return checkLlm({ model: llm.model, baseUrl: llm.baseUrl, apiKey: llm.apiKey }, timeoutMs, admit);
      },
    );
  };
}
