import {
  ApiKeyCreate,
  CustomSecretCreate,
  CustomSecretUpdate,
  OrgCreate,
  OrgMemberUpdate,
  POSTProviderModel,
  SETTINGS_READ_ONLY_FIELDS,
  SettingsUpdate,
  openApiComponents,
  protocolSchemas,
  safeParse,
} from '@bosun/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const failures = (schema: Parameters<typeof safeParse>[0], value: unknown) => {
  const result = safeParse(schema, value);
  return result.ok ? [] : result.errors;
};

describe('app server shapes', () => {
  it('are named components of the OpenAPI document', () => {
    const components = openApiComponents();
    for (const id of ['Settings', 'SettingsUpdate', 'CustomSecretPage', 'ApiKeyCreated', 'OrgMemberPage', 'UserInfo']) {
      expect(components[id], id).toBeDefined();
      expect(protocolSchemas.get(id)?.$id).toBe(id);
    }
  });

  it('take a partial settings update, unknown fields ignored as OpenHands’ schema ignores them', () => {
    expect(failures(SettingsUpdate, { llm_model: 'gpt-4o' })).toEqual([]);
    expect(failures(SettingsUpdate, { agent_settings_diff: { condenser: { max_size: 80 } } })).toEqual([]);
    expect(failures(SettingsUpdate, { llm_model: 'x', is_new_user: true, condenser_max_size: 240 })).toEqual([]);
  });

  it('accept the read-only fields a client posts back from a GET, agent_settings and conversation_settings too', () => {
    const posted = Object.fromEntries(SETTINGS_READ_ONLY_FIELDS.map((name) => [name, true]));
    expect(failures(SettingsUpdate, posted)).toEqual([]);
    expect(SETTINGS_READ_ONLY_FIELDS).toContain('agent_settings');
    expect(SETTINGS_READ_ONLY_FIELDS).toContain('conversation_settings');
  });

  it('reject wrong types in settings with their location', () => {
    expect(failures(SettingsUpdate, { confirmation_mode: 'yes' })[0]?.loc).toEqual(['confirmation_mode']);
    expect(failures(SettingsUpdate, { disabled_skills: ['a', 3] })[0]?.loc).toEqual(['disabled_skills', 1]);
    expect(failures(SettingsUpdate, { llm_api_key: '' })[0]?.loc).toEqual(['llm_api_key']);
  });

  it('accept secret names that are environment variable names and nothing else', () => {
    const valid = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/);
    fc.assert(fc.property(valid, (name) => failures(CustomSecretCreate, { name, value: 'v' }).length === 0));
    for (const name of ['', '1ABC', 'A-B', 'a b', 'é', 'A'.repeat(129), 'X\n']) {
      expect(failures(CustomSecretCreate, { name, value: 'v' })[0]?.loc, name).toEqual(['name']);
    }
    expect(failures(CustomSecretCreate, { name: 'A' })[0]?.loc).toEqual(['value']);
    expect(failures(CustomSecretUpdate, { value: '' })[0]?.loc).toEqual(['value']);
  });

  it('validate provider tokens by provider', () => {
    expect(failures(POSTProviderModel, { provider_tokens: { github: { token: 'ghp_x' } } })).toEqual([]);
    expect(failures(POSTProviderModel, { provider_tokens: { gitgud: { token: 'x' } } }).length).toBeGreaterThan(0);
  });

  it('validate keys, organizations and roles', () => {
    expect(failures(ApiKeyCreate, { name: 'ci', expires_at: '2030-01-01T00:00:00Z' })).toEqual([]);
    expect(failures(ApiKeyCreate, { org_id: 'not-a-uuid' })[0]?.loc).toEqual(['org_id']);
    expect(failures(OrgCreate, { name: '' })[0]?.loc).toEqual(['name']);
    expect(failures(OrgCreate, { name: '   ' })[0]?.loc).toEqual(['name']);
    expect(failures(OrgMemberUpdate, { role: 'king' })[0]?.loc).toEqual(['role']);
  });
});
