import type { SettingsUpdate } from '@bosun/protocol';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../identity/authenticate.ts';
import { settingsPatch, settingsView } from '../settings/settings-view.ts';
import type { IdentityRouteDeps } from './deps.ts';
import { shape } from './replies.ts';
import { routeOptions } from './route-options.ts';

const route = routeOptions('Settings');

/** `GET/POST /api/v1/settings`: the caller's settings, updated partially; never a secret's value. */
export function settingsRoutes(
  app: FastifyInstance,
  { settings, providerTokens, llmDefaults }: IdentityRouteDeps,
): void {
  app.get(
    '/settings',
    route('The caller’s settings (the instance’s LLM defaults where the user set none)', {
      response: { 200: 'Settings' },
    }),
    async (request) => {
      const { userId } = principalOf(request);
      const [stored, providers] = await Promise.all([settings.get(userId), providerTokens.list(userId)]);
      return settingsView(stored ?? {}, llmDefaults, providers);
    },
  );

  app.post<{ Body: SettingsUpdate }>(
    '/settings',
    route('Change some settings (fields left out keep their value)', {
      body: shape('SettingsUpdate'),
      response: { 200: 'EditResponse' },
    }),
    async (request) => {
      const { userId } = principalOf(request);
      await settings.update(userId, settingsPatch(request.body));
      return { message: 'Settings stored' };
    },
  );
}
