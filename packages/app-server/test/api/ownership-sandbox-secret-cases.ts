import { type WrongUserCase, as } from './ownership-support.ts';

/**
 * A sandbox's secrets are read with that sandbox's own session key only: another user, by their API key in any
 * header, is refused before anything is read (test/conversations/sandbox-secrets.test.ts: another sandbox's key).
 */
export const SANDBOX_SECRET_CASES: Record<string, WrongUserCase> = {
  'GET /api/v1/sandboxes/{sandbox_id}/settings/secrets': {
    expected: 401,
    attempt: (api, { stranger, sandboxId }) =>
      api.call(`/api/v1/sandboxes/${sandboxId}/settings/secrets`, as(stranger)),
  },
  'GET /api/v1/sandboxes/{sandbox_id}/settings/secrets/{name}': {
    expected: 401,
    attempt: (api, { stranger, sandboxId, secretName }) =>
      api.call(`/api/v1/sandboxes/${sandboxId}/settings/secrets/${secretName}`, {
        headers: { 'X-Session-API-Key': stranger.key },
      }),
  },
};
