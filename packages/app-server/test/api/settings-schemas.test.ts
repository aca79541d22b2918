import { SettingsUpdate, newProtocolAjv } from '@bosun/protocol';
import { beforeAll, expect, it } from 'vitest';
import { type TestUser, describeApi } from './harness.ts';

const FIELDS = [
  ['agent', 'agent_settings_diff', 'agent_settings'],
  ['conversation', 'conversation_settings_diff', 'conversation_settings'],
] as const;

/** Values and whether the schema takes them: objects (nested, nulls removing keys) yes, anything else no. */
const VALUES: [unknown, boolean][] = [
  [{ condenser: { max_size: 80 }, tools: ['terminal'] }, true],
  [{ condenser: null }, true],
  [{}, true],
  [['terminal'], false],
  ['terminal', false],
  [42, false],
  [true, false],
];

describeApi('the JSON Schemas of the settings objects', (api) => {
  let user: TestUser;
  beforeAll(async () => {
    user = await api().user();
  });

  it.each(FIELDS)('answers the schema POST /settings validates `%s` settings with', async (name, field) => {
    const answer = await api().call(`/api/v1/settings/${name}-schema`, { as: user });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual(JSON.parse(JSON.stringify(SettingsUpdate.properties[field])));
    expect(answer.body.type).toBe('object');
  });

  it.each(FIELDS)(
    '%s: a value the schema takes is stored, one it refuses is a 422 there',
    async (name, field, stored) => {
      const schema = (await api().call(`/api/v1/settings/${name}-schema`, { as: user })).body;
      const valid = newProtocolAjv().compile(schema);
      for (const [value, takes] of VALUES) {
        expect(valid(value), JSON.stringify(value)).toBe(takes);
        const posted = await api().call('/api/v1/settings', { method: 'POST', as: user, body: { [field]: value } });
        if (takes) {
          expect(posted.status, posted.text).toBe(200);
        } else {
          expect(posted.status, JSON.stringify(value)).toBe(422);
          expect(posted.body.detail[0].loc).toEqual(['body', field]);
        }
      }
      const settings = (await api().call('/api/v1/settings', { as: user })).body;
      expect(settings[stored]).toEqual({ tools: ['terminal'] });
    },
  );

  it('requires a credential', async () => {
    for (const name of ['agent', 'conversation']) {
      const answer = await api().call(`/api/v1/settings/${name}-schema`);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ detail: expect.any(String) });
    }
  });
});
