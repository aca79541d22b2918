import { createHmac, randomUUID } from 'node:crypto';
import type { Answer, Api } from '../api/harness.ts';

export const GITHUB_APP_WEBHOOK = '/api/v1/git/github/app-webhook';

/** `body`'s `X-Hub-Signature-256` under `secret`, as GitHub signs a delivery. */
export const signatureOf = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** Delivers `payload` as GitHub would: the `event`, a delivery id (new unless given), signed with `secret`. */
export function signedWebhook(
  api: Api,
  secret: string,
  event: string,
  payload: unknown,
  delivery: string = randomUUID(),
): Promise<Answer> {
  const body = JSON.stringify(payload);
  return api.call(GITHUB_APP_WEBHOOK, {
    method: 'POST',
    body,
    headers: {
      'x-github-event': event,
      'x-github-delivery': delivery,
      'x-hub-signature-256': signatureOf(secret, body),
    },
  });
}
