import { InputError } from '@bosun/http';
import type { SettingsUpdate } from '@bosun/protocol';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { conflictsAs409, shape } from '../../http/replies.ts';
import { routeOptions } from '../../http/route-options.ts';
import { principalOf } from '../../identity/authenticate.ts';
import { callerOf } from '../../marketplaces/routes/marketplaces.ts';
import { llmProfilesView, setsLlm, stillActive } from '../llm-profiles.ts';
import { knownUpdate, settingsPatch, settingsView } from '../settings-view.ts';
import type { SettingsRouteDeps } from './deps.ts';

const route = routeOptions('Settings');

/** `GET/POST /api/v1/settings`: the caller's settings, updated partially; never a secret's value. */
export function settingsRoutes({
  settings,
  providerTokens,
  llmDefaults,
  marketplaces,
  llmProfiles,
}: SettingsRouteDeps): ApiRoutes {
  return (app) => {
    app.get(
      '/settings',
      route('The caller’s settings (the instance’s LLM defaults where the user set none)', {
        response: { 200: 'Settings' },
      }),
      async (request) => {
        const caller = callerOf(request);
        const [stored, providers, listed, profiles] = await Promise.all([
          settings.get(caller.userId),
          providerTokens.list(caller.userId),
          marketplaces?.view(caller) ?? { registered: [], inherited: [] },
          llmProfiles.list(caller.userId),
        ]);
        return settingsView(stored ?? {}, llmDefaults, providers, listed, llmProfilesView(profiles));
      },
    );

    app.post<{ Body: SettingsUpdate }>(
      '/settings',
      route('Change some settings (fields left out keep their value)', {
        description:
          '`registered_marketplaces` replaces the caller’s whole personal list, checked as a whole before any ' +
          'change: a name given twice or taken by an inherited marketplace is a 409, and nothing is stored. ' +
          'Setting the LLM (model, base URL or key) to other than the active LLM profile’s ends its activation. ' +
          'A GET’s answer posted back is accepted and changes nothing: read-only and unknown fields are ignored.',
        body: shape('SettingsUpdate'),
        response: { 200: 'EditResponse', 409: 'HTTPError' },
      }),
      async (request) => {
        const { userId } = principalOf(request);
        const update = knownUpdate(request.body);
        const patch = settingsPatch(update);
        const list = update.registered_marketplaces;
        if (list !== undefined && !marketplaces) {
          throw new InputError([
            { loc: ['body', 'registered_marketplaces'], msg: 'this server has no marketplaces', type: 'value_error' },
          ]);
        }
        const profile = setsLlm(update)
          ? llmProfiles.keepActiveIf(userId, stillActive(update, llmDefaults))
          : undefined;
        await conflictsAs409(async () => {
          const replaced = list === undefined ? undefined : await marketplaces?.replacement(userId, list);
          await settings.update(userId, patch, async (trx) => {
            await replaced?.(trx);
            await profile?.(trx);
          });
        });
        return { message: 'Settings stored' };
      },
    );
  };
}
