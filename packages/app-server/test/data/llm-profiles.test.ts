import { expect, it } from 'vitest';
import {
  KeyRing,
  LlmProfileChangedError,
  LlmProfileLimitError,
  LlmProfileNameTakenError,
  MAX_LLM_PROFILES,
  createRepositories,
  newSecretsKey,
} from '../../src/data/index.ts';
import { describeEachDatabase } from '../support/databases.ts';

const FAST = { model: 'openai/fast', base_url: 'http://fast.test/v1', api_key: 'sk-fast-plaintext-marker' };

describeEachDatabase('LLM profiles', (each) => {
  it('saves a profile with its key sealed, lists it without the key, and reads the key back', async () => {
    const { repositories, database } = await each.shared();
    const user = await repositories.users.create();
    expect(await repositories.llmProfiles.save(user.id, 'fast', FAST)).toBe(true);
    const [listed] = await repositories.llmProfiles.list(user.id);
    expect(listed).toEqual({
      id: expect.any(String),
      name: 'fast',
      model: FAST.model,
      base_url: FAST.base_url,
      api_key_set: true,
      active: false,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(JSON.stringify(listed)).not.toContain(FAST.api_key);
    expect(await repositories.llmProfiles.get(user.id, 'fast')).toEqual({ ...listed, api_key: FAST.api_key });
    const rows = await database.db.selectFrom('llm_profiles').selectAll().where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(FAST.api_key);
  });

  it('overwrites a profile saved again, keeping its key only when the save gives none', async () => {
    const { repositories } = await each.shared();
    const user = await repositories.users.create();
    await repositories.llmProfiles.save(user.id, 'p', FAST);
    expect(await repositories.llmProfiles.save(user.id, 'p', { model: 'openai/other', base_url: null })).toBe(false);
    expect(await repositories.llmProfiles.get(user.id, 'p')).toMatchObject({
      model: 'openai/other',
      base_url: null,
      api_key: FAST.api_key,
    });
    await repositories.llmProfiles.save(user.id, 'p', { model: 'openai/other', base_url: null, api_key: null });
    expect(await repositories.llmProfiles.get(user.id, 'p')).toMatchObject({ api_key: null, api_key_set: false });
    expect(await repositories.llmProfiles.list(user.id)).toHaveLength(1);
  });

  it('lists by name in code point order, and keeps each user to their own (same names allowed)', async () => {
    const { repositories } = await each.shared();
    const [alice, bob] = await Promise.all([repositories.users.create(), repositories.users.create()]);
    for (const name of ['b', 'B', 'a.1', 'A-2']) await repositories.llmProfiles.save(alice.id, name, FAST);
    await repositories.llmProfiles.save(bob.id, 'b', { model: 'bob/model', base_url: null, api_key: 'sk-bob' });
    expect((await repositories.llmProfiles.list(alice.id)).map((p) => p.name)).toEqual(['A-2', 'B', 'a.1', 'b']);
    expect(await repositories.llmProfiles.get(bob.id, 'a.1')).toBeUndefined();
    expect(await repositories.llmProfiles.get(bob.id, 'b')).toMatchObject({ model: 'bob/model', api_key: 'sk-bob' });
    expect(await repositories.llmProfiles.get(alice.id, 'b')).toMatchObject({ api_key: FAST.api_key });
    expect(await repositories.llmProfiles.delete(bob.id, 'B')).toBe(false);
    expect(await repositories.llmProfiles.rename(bob.id, 'a.1', 'x')).toBe(false);
    expect(await repositories.llmProfiles.list(alice.id)).toHaveLength(4);
  });

  it(`refuses a new profile beyond ${MAX_LLM_PROFILES}, even saved at once, but overwrites one at the bound`, async () => {
    const { repositories } = await each.shared();
    const user = await repositories.users.create();
    const names = Array.from({ length: MAX_LLM_PROFILES + 5 }, (_, index) => `p${index}`);
    const saved = await Promise.allSettled(names.map((name) => repositories.llmProfiles.save(user.id, name, FAST)));
    expect(saved.filter((result) => result.status === 'fulfilled')).toHaveLength(MAX_LLM_PROFILES);
    for (const result of saved) {
      if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(LlmProfileLimitError);
    }
    expect(await repositories.llmProfiles.list(user.id)).toHaveLength(MAX_LLM_PROFILES);
    const kept = (await repositories.llmProfiles.list(user.id))[0]?.name as string;
    expect(await repositories.llmProfiles.save(user.id, kept, { model: 'm', base_url: null })).toBe(false);
    await expect(repositories.llmProfiles.save(user.id, 'one-more', FAST)).rejects.toThrow(LlmProfileLimitError);
  });

  it('renames a profile with its key and active mark, refusing a name taken; deletes', async () => {
    const { repositories } = await each.shared();
    const user = await repositories.users.create();
    await repositories.llmProfiles.save(user.id, 'old', FAST);
    await repositories.llmProfiles.save(user.id, 'taken', { model: 'm', base_url: null });
    const old = await repositories.llmProfiles.get(user.id, 'old');
    await repositories.settings.update(user.id, {}, repositories.llmProfiles.markActive(user.id, old as never));
    await expect(repositories.llmProfiles.rename(user.id, 'old', 'taken')).rejects.toThrow(LlmProfileNameTakenError);
    expect(await repositories.llmProfiles.rename(user.id, 'old', 'old')).toBe(true);
    expect(await repositories.llmProfiles.rename(user.id, 'old', 'new')).toBe(true);
    expect(await repositories.llmProfiles.get(user.id, 'old')).toBeUndefined();
    expect(await repositories.llmProfiles.get(user.id, 'new')).toMatchObject({
      id: old?.id,
      api_key: FAST.api_key,
      active: true,
    });
    expect(await repositories.llmProfiles.delete(user.id, 'new')).toBe(true);
    expect(await repositories.llmProfiles.delete(user.id, 'new')).toBe(false);
    expect((await repositories.llmProfiles.list(user.id)).map((p) => [p.name, p.active])).toEqual([['taken', false]]);
  });

  it('marks one profile active with the settings change, and rolls both back when the profile changed', async () => {
    const { repositories } = await each.shared();
    const user = await repositories.users.create();
    await repositories.llmProfiles.save(user.id, 'a', FAST);
    await repositories.llmProfiles.save(user.id, 'b', { model: 'b/model', base_url: null, api_key: null });
    const [a, b] = [await repositories.llmProfiles.get(user.id, 'a'), await repositories.llmProfiles.get(user.id, 'b')];
    if (!a || !b) throw new Error('saved above');
    await repositories.settings.update(user.id, { llm_model: 'a' }, repositories.llmProfiles.markActive(user.id, a));
    await repositories.settings.update(user.id, { llm_model: 'b' }, repositories.llmProfiles.markActive(user.id, b));
    const active = async () =>
      (await repositories.llmProfiles.list(user.id)).filter((p) => p.active).map((p) => p.name);
    expect(await active()).toEqual(['b']);
    await repositories.llmProfiles.save(user.id, 'a', { ...FAST, api_key: 'sk-changed' });
    await expect(
      repositories.settings.update(user.id, { llm_model: 'stale' }, repositories.llmProfiles.markActive(user.id, a)),
    ).rejects.toThrow(LlmProfileChangedError);
    expect(await active()).toEqual(['b']);
    expect(await repositories.settings.get(user.id)).toMatchObject({ llm_model: 'b' });
  });

  it('ends the active mark only when the new LLM is no longer the profile’s', async () => {
    const { repositories } = await each.shared();
    const user = await repositories.users.create();
    await repositories.llmProfiles.save(user.id, 'a', FAST);
    const a = await repositories.llmProfiles.get(user.id, 'a');
    if (!a) throw new Error('saved above');
    await repositories.settings.update(user.id, {}, repositories.llmProfiles.markActive(user.id, a));
    const seen: string[] = [];
    const keep = (answer: boolean) =>
      repositories.llmProfiles.keepActiveIf(user.id, (profile) => {
        seen.push(profile.api_key as string);
        return answer;
      });
    await repositories.settings.update(user.id, {}, keep(true));
    expect(await repositories.llmProfiles.get(user.id, 'a')).toMatchObject({ active: true });
    await repositories.settings.update(user.id, {}, keep(false));
    expect(await repositories.llmProfiles.get(user.id, 'a')).toMatchObject({ active: false });
    await repositories.settings.update(user.id, {}, keep(true));
    expect(seen).toEqual([FAST.api_key, FAST.api_key]);
  });

  it('keys are sealed again with a new key at open, and readable once the old key is dropped', async () => {
    const target = await each.target();
    const oldKey = newSecretsKey();
    const first = await each.open({ target, keyRing: new KeyRing(oldKey) });
    const user = await createRepositories(first, new KeyRing(oldKey)).users.create();
    await createRepositories(first, new KeyRing(oldKey)).llmProfiles.save(user.id, 'p', FAST);
    await first.close();
    const newKey = newSecretsKey();
    const rotating = new KeyRing(newKey, [oldKey]);
    const second = await each.open({ target, keyRing: rotating });
    const keyIds = await second.db.selectFrom('llm_profiles').select('key_id').execute();
    expect(keyIds).toEqual([{ key_id: rotating.currentKeyId }]);
    await second.close();
    const rotated = new KeyRing(newKey);
    const third = await each.open({ target, keyRing: rotated });
    expect(await createRepositories(third, rotated).llmProfiles.get(user.id, 'p')).toMatchObject({
      api_key: FAST.api_key,
    });
  });
});
