import { HttpError, InputError, NotFoundError } from '@bosun/http';
import type { FastifyRequest } from 'fastify';
import type { Repositories } from '../../data/index.ts';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { routeOptions } from '../../http/route-options.ts';
import type { GitHubApp } from '../apps/github-app.ts';
import { INSTALLATION_EVENTS, type InstallationEventName, installationEventOf } from '../apps/webhook-events.ts';
import { signatureMatches } from '../apps/webhook-signature.ts';

const route = routeOptions('Git');

/** Where the GitHub App's webhook is (its "Webhook URL": `<public_url>/api/v1` and this). */
export const GITHUB_APP_WEBHOOK_PATH = '/git/github/app-webhook';

export interface GitAppWebhookDeps {
  /** The app's webhook secret (`git_github_app_webhook_secret`); none: its webhooks are not taken (404). */
  secret: string | undefined;
  events: Pick<Repositories['gitAppEvents'], 'record'>;
  /** The app, told of each installation that changed (its tokens and repositories are found again). */
  app?: Pick<GitHubApp, 'forget'> | undefined;
}

/** One header's value (the first, when sent several times). */
function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const DELIVERY = /^[A-Za-z0-9-]{1,100}$/;

/**
 * `POST /api/v1/git/github/app-webhook`: the GitHub App's webhook. Nothing of a delivery is read before its
 * `X-Hub-Signature-256` is found to be the HMAC of its body under the webhook secret (401 otherwise). Installation
 * events (`installation`: created, deleted, suspend...; `installation_repositories`: added, removed) are recorded,
 * once per delivery, and the installation's cached tokens dropped; any other event is acknowledged and dropped.
 */
export function gitAppWebhookRoutes(deps: GitAppWebhookDeps): ApiRoutes {
  return async (api) => {
    await api.register(async (scope) => {
      // The signature is of the body's bytes as sent: it is read as they are, parsed only once they are verified.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
      scope.post(
        GITHUB_APP_WEBHOOK_PATH,
        {
          // Signed, not authenticated; the body is bytes until verified (its text fields are checked once parsed).
          config: { public: true, nulInBody: true },
          ...route('The GitHub App’s webhook (signed with its webhook secret)', {
            description: 'Signed by GitHub: `X-Hub-Signature-256`, `X-GitHub-Event`, `X-GitHub-Delivery`.',
            response: { 200: 'SuccessResponse', 401: 'HTTPError' },
          }),
        },
        async (request) => {
          if (deps.secret === undefined) throw new NotFoundError('No GitHub App webhook secret is configured');
          const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          if (!signatureMatches(deps.secret, body, header(request, 'x-hub-signature-256'))) {
            throw new HttpError(401, 'The webhook is not signed with the webhook secret (X-Hub-Signature-256)');
          }
          const event = header(request, 'x-github-event') ?? '';
          if (!(INSTALLATION_EVENTS as readonly string[]).includes(event)) return { success: true };
          const delivery = header(request, 'x-github-delivery') ?? '';
          if (!DELIVERY.test(delivery)) {
            throw new InputError([
              { loc: ['header', 'x-github-delivery'], msg: 'A delivery id is required', type: 'value_error' },
            ]);
          }
          let payload: unknown;
          try {
            payload = JSON.parse(body.toString('utf8'));
          } catch (error) {
            const msg = `JSON decode error: ${error instanceof Error ? error.message : String(error)}`;
            throw new InputError([{ loc: ['body'], msg, type: 'json_invalid' }]);
          }
          const parsed = installationEventOf(delivery, event as InstallationEventName, payload);
          if (!parsed.ok) throw new InputError(parsed.errors);
          await deps.events.record(parsed.event);
          deps.app?.forget(parsed.event.installationId);
          return { success: true };
        },
      );
    });
  };
}
