import type { SettingsUpdate } from '@bosun/protocol';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../identity/authenticate.ts';
import { settingsPatch, settingsView } from '../settings/settings-view.ts';
import type { IdentityRouteDeps } from './deps.ts';
import { errorResponses, shape } from './replies.ts';

const tags = ['Settings'];

/** `GET/POST /api/v1/settings`: the caller's settings, updated partially; never a secret's value. */
export function settingsRoutes(
  app: FastifyInstance,
  { settings, providerTokens, llmDefaults }: IdentityRouteDeps,
): void {
  app.get(
    '/settings',
    {
      schema: {
        tags,
        summary: 'The caller’s settings (the instance’s LLM defaults where the user set none)',
        response: { 200: shape('Settings'), ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = principalOf(request);
      const [stored, providers] = await Promise.all([settings.get(userId), providerTokens.list(userId)]);
      return settingsView(stored ?? {}, llmDefaults, providers);
    },
  );

  app.post<{ Body: SettingsUpdate }>(
    '/settings',
    {
      schema: {
        tags,
        summary: 'Change some settings (fields left out keep their value)',
        body: shape('SettingsUpdate'),
        response: { 200: shape('EditResponse'), ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = principalOf(request);
      await settings.update(userId, settingsPatch(request.body));
      return { message: 'Settings stored' };
    },
  );
}
