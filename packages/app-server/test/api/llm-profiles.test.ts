import { AppServerClient } from '@bosun/client';
import { beforeAll, expect, it } from 'vitest';
import { MAX_LLM_PROFILES } from '../../src/data/index.ts';
import { type TestUser, describeApi } from './harness.ts';

const KEY = 'sk-profile-plaintext-7c1d';
const FAST = { model: 'openai/fast-model', base_url: 'http://fast.llm.test/v1', api_key: KEY };
const PROFILES = '/api/v1/settings/profiles';

describeApi('LLM profiles', (api) => {
  let owner: TestUser;
  let stranger: TestUser;
  const call = (method: string, path: string, as: TestUser, body?: unknown) =>
    api().call(path, { method, as, ...(body === undefined ? {} : { body }) });
  const save = (as: TestUser, name: string, body?: unknown) => call('POST', `${PROFILES}/${name}`, as, body);
  const settingsOf = async (as: TestUser) => (await call('GET', '/api/v1/settings', as)).body;

  beforeAll(async () => {
    [owner, stranger] = await api().users(2);
  });

  it('saves a profile, lists and reads it without its key, and never logs the key', async () => {
    const saved = await save(owner, 'fast', { llm: FAST });
    expect(saved.status, saved.text).toBe(201);
    expect(saved.body).toEqual({ name: 'fast', message: 'Profile saved' });
    const listed = await call('GET', PROFILES, owner);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      profiles: [{ name: 'fast', model: FAST.model, base_url: FAST.base_url, api_key_set: true }],
      active_profile: null,
    });
    const read = await call('GET', `${PROFILES}/fast`, owner);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      name: 'fast',
      config: { model: FAST.model, base_url: FAST.base_url, api_key: null },
      api_key_set: true,
    });
    const settings = await call('GET', '/api/v1/settings', owner);
    expect(settings.body.llm_profiles).toEqual({
      profiles: { fast: { name: 'fast', model: FAST.model, base_url: FAST.base_url, api_key_set: true } },
      active: null,
    });
    for (const answer of [saved, listed, read, settings]) expect(answer.text).not.toContain(KEY);
    expect(api().logs.join('\n')).not.toContain(KEY);
  });

  it('saves a copy of the settings’ LLM when no llm is given, its key unless told, or keeps the stored key', async () => {
    const user = await api().user({ llm_model: 'own/model', llm_base_url: 'http://own.test', llm_api_key: 'sk-own' });
    expect((await save(user, 'copy')).status).toBe(201);
    expect((await api().repositories.llmProfiles.get(user.id, 'copy')) ?? {}).toMatchObject({
      model: 'own/model',
      base_url: 'http://own.test',
      api_key: 'sk-own',
    });
    expect((await save(user, 'copy', null)).status).toBe(201);
    expect((await save(user, 'no-key', { include_secrets: false })).status).toBe(201);
    expect((await call('GET', `${PROFILES}/no-key`, user)).body).toMatchObject({ api_key_set: false });
    expect((await save(user, 'copy', { llm: { model: 'other/model' }, preserve_existing_api_key: true })).status).toBe(
      201,
    );
    expect(await api().repositories.llmProfiles.get(user.id, 'copy')).toMatchObject({
      model: 'other/model',
      base_url: null,
      api_key: 'sk-own',
    });
    expect((await save(user, 'copy', { llm: { model: 'other/model' } })).status).toBe(201);
    expect((await call('GET', `${PROFILES}/copy`, user)).body).toMatchObject({ api_key_set: false });
    // Nothing to copy: this instance has no LLM defaults and the stranger set none.
    const nothing = await save(stranger, 'empty');
    expect(nothing.status).toBe(422);
    expect(nothing.body.detail[0].loc).toEqual(['body', 'llm']);
  });

  it('activates a profile: the settings take its LLM (and key) and show it active until their LLM changes', async () => {
    const user = await api().user({ llm_model: 'before/model', llm_api_key: 'sk-before' });
    await save(user, 'fast', { llm: FAST });
    const activated = await call('POST', `${PROFILES}/fast/activate`, user);
    expect(activated.status, activated.text).toBe(200);
    expect(activated.body).toEqual({ name: 'fast', model: FAST.model, message: 'Profile fast activated' });
    const settings = await settingsOf(user);
    expect(settings).toMatchObject({ llm_model: FAST.model, llm_base_url: FAST.base_url, llm_api_key_set: true });
    expect(settings.llm_profiles.active).toBe('fast');
    expect((await call('GET', PROFILES, user)).body.active_profile).toBe('fast');
    expect(await api().repositories.settings.get(user.id)).toMatchObject({ llm_api_key: KEY });
    // Other settings, or the same LLM posted back, keep it active; another LLM ends it.
    expect((await call('POST', '/api/v1/settings', user, { git_user_name: 'Ada' })).status).toBe(200);
    expect((await call('POST', '/api/v1/settings', user, { llm_model: FAST.model, llm_api_key: KEY })).status).toBe(
      200,
    );
    expect((await settingsOf(user)).llm_profiles.active).toBe('fast');
    expect((await call('POST', '/api/v1/settings', user, { llm_base_url: 'http://elsewhere.test' })).status).toBe(200);
    expect((await settingsOf(user)).llm_profiles.active).toBeNull();
    // A profile without base URL or key leaves the settings none of their own.
    await save(user, 'bare', { llm: { model: 'bare/model' } });
    expect((await call('POST', `${PROFILES}/bare/activate`, user)).status).toBe(200);
    expect(await settingsOf(user)).toMatchObject({
      llm_model: 'bare/model',
      llm_base_url: null,
      llm_api_key_set: false,
      llm_profiles: { active: 'bare' },
    });
    // Deleting the active profile leaves the settings their LLM, with no profile active.
    expect((await call('DELETE', `${PROFILES}/bare`, user)).body).toEqual({ name: 'bare', message: 'Profile deleted' });
    expect(await settingsOf(user)).toMatchObject({ llm_model: 'bare/model', llm_profiles: { active: null } });
    expect((await call('DELETE', `${PROFILES}/bare`, user)).status).toBe(404);
  });

  it('renames a profile with its key and active mark; 409 onto a name taken, 404 for an unknown one', async () => {
    const user = await api().user();
    await save(user, 'old', { llm: FAST });
    await save(user, 'taken', { llm: { model: 'm' } });
    expect((await call('POST', `${PROFILES}/old/activate`, user)).status).toBe(200);
    const taken = await call('POST', `${PROFILES}/old/rename`, user, { new_name: 'taken' });
    expect(taken.status).toBe(409);
    expect(taken.body.detail).toBe('an LLM profile named taken already exists');
    const renamed = await call('POST', `${PROFILES}/old/rename`, user, { new_name: 'new.name_2' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toEqual({ name: 'new.name_2', message: 'Profile renamed to new.name_2' });
    expect((await call('GET', `${PROFILES}/old`, user)).status).toBe(404);
    expect((await call('GET', `${PROFILES}/new.name_2`, user)).body).toMatchObject({ api_key_set: true });
    expect((await settingsOf(user)).llm_profiles.active).toBe('new.name_2');
    const unknown = await call('POST', `${PROFILES}/nope/rename`, user, { new_name: 'x' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Profile not found' });
    for (const path of [`${PROFILES}/nope`, `${PROFILES}/nope/activate`]) {
      const method = path.endsWith('activate') ? 'POST' : 'GET';
      expect((await call(method, path, user)).status).toBe(404);
    }
  });

  it(`keeps at most ${MAX_LLM_PROFILES} profiles per user (409 beyond), overwriting one at the bound`, async () => {
    const user = await api().user();
    for (let index = 0; index < MAX_LLM_PROFILES; index++) {
      expect((await save(user, `p${index}`, { llm: { model: 'm' } })).status).toBe(201);
    }
    const beyond = await save(user, 'one-more', { llm: { model: 'm' } });
    expect(beyond.status).toBe(409);
    expect(beyond.body.detail).toMatch(/50 LLM profiles/);
    expect((await save(user, 'p0', { llm: { model: 'n' } })).status).toBe(201);
    expect((await save(stranger, 'one-more', { llm: { model: 'm' } })).status).toBe(201);
  });

  it('answers 422 at the place of a bad name or body', async () => {
    const long = 'a'.repeat(65);
    const cases: [string, string, unknown, (string | number)[]][] = [
      ['GET', `${PROFILES}/a%2Fb`, undefined, ['path', 'name']],
      ['GET', `${PROFILES}/-lead`, undefined, ['path', 'name']],
      ['GET', `${PROFILES}/%20`, undefined, ['path', 'name']],
      ['DELETE', `${PROFILES}/${long}`, undefined, ['path', 'name']],
      ['POST', `${PROFILES}/a%20b/activate`, undefined, ['path', 'name']],
      ['POST', `${PROFILES}/ok`, { llm: { model: '' } }, ['body', 'llm', 'model']],
      ['POST', `${PROFILES}/ok`, { llm: { model: '   ' } }, ['body', 'llm', 'model']],
      ['POST', `${PROFILES}/ok`, { llm: { model: 'm', custom_header: 'x' } }, ['body', 'llm', 'custom_header']],
      ['POST', `${PROFILES}/ok`, { llm: { model: 'm', api_key: 42 } }, ['body', 'llm', 'api_key']],
      ['POST', `${PROFILES}/ok`, { include_secrets: 'yes' }, ['body', 'include_secrets']],
      ['POST', `${PROFILES}/ok/rename`, { new_name: 'a/b' }, ['body', 'new_name']],
      ['POST', `${PROFILES}/ok/rename`, {}, ['body', 'new_name']],
    ];
    for (const [method, path, body, loc] of cases) {
      const answer = await call(method, path, owner, body);
      expect(answer.status, `${method} ${path} ${answer.text}`).toBe(422);
      expect(answer.body.detail[0].loc, `${method} ${path}`).toEqual(loc);
    }
  });

  it("never reaches another user's profile: 404 for each route, and their names are theirs", async () => {
    expect((await save(owner, 'mine', { llm: FAST })).status).toBe(201);
    for (const [method, path, body] of [
      ['GET', `${PROFILES}/mine`],
      ['DELETE', `${PROFILES}/mine`],
      ['POST', `${PROFILES}/mine/activate`],
      ['POST', `${PROFILES}/mine/rename`, { new_name: 'stolen' }],
    ] as const) {
      const answer = await call(method, path, stranger, body);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body).toEqual({ detail: 'Profile not found' });
    }
    expect((await call('GET', PROFILES, stranger)).body.profiles.map((p: { name: string }) => p.name)).not.toContain(
      'mine',
    );
    expect((await save(stranger, 'mine', { llm: { model: 'theirs' } })).status).toBe(201);
    expect((await call('GET', `${PROFILES}/mine`, owner)).body.config.model).toBe(FAST.model);
    expect((await settingsOf(stranger)).llm_model).not.toBe(FAST.model);
  });

  it('is driven by the typed client', async () => {
    const user = await api().user();
    const client = new AppServerClient({ baseUrl: api().url, apiKey: user.key });
    expect(
      await client.post('/api/v1/settings/profiles/{name}', { params: { name: 'typed' }, body: { llm: FAST } }),
    ).toEqual({ name: 'typed', message: 'Profile saved' });
    expect((await client.get('/api/v1/settings/profiles/{name}', { params: { name: 'typed' } })).config).toEqual({
      model: FAST.model,
      base_url: FAST.base_url,
      api_key: null,
    });
    expect((await client.post('/api/v1/settings/profiles/{name}/activate', { params: { name: 'typed' } })).model).toBe(
      FAST.model,
    );
    expect(
      (
        await client.post('/api/v1/settings/profiles/{name}/rename', {
          params: { name: 'typed' },
          body: { new_name: 'typed-2' },
        })
      ).name,
    ).toBe('typed-2');
    expect(await client.get('/api/v1/settings/profiles')).toMatchObject({
      profiles: [{ name: 'typed-2' }],
      active_profile: 'typed-2',
    });
    expect((await client.delete('/api/v1/settings/profiles/{name}', { params: { name: 'typed-2' } })).message).toBe(
      'Profile deleted',
    );
    expect((await client.get('/api/v1/settings/profiles')).profiles).toEqual([]);
  });
});
