import { expect, it } from 'vitest';
import { mergePatch } from '../../src/data/merge-patch.ts';
import { describeEachDatabase } from '../support/databases.ts';

it('merges a patch as RFC 7396 does: deep objects, null removes, arrays replace', () => {
  const target = { a: 1, nested: { keep: true, drop: 'x', deeper: { n: 1 } }, list: [1, 2] };
  expect(mergePatch(target, { nested: { drop: null, deeper: { m: 2 } }, list: [3], b: { c: 1 }, a: null })).toEqual({
    nested: { keep: true, deeper: { n: 1, m: 2 } },
    list: [3],
    b: { c: 1 },
  });
  expect(target.nested.drop).toBe('x');
});

describeEachDatabase('settings', (each) => {
  it('has no settings for a new user, then stores partial updates merged deeply', async () => {
    const { repositories } = await each.shared();
    const user = await repositories.users.create();
    expect(await repositories.settings.get(user.id)).toBeUndefined();
    const first = await repositories.settings.update(user.id, {
      llm_model: 'gpt-5',
      llm_api_key: 'sk-secret-value',
      agent_settings: { confirmation_mode: false, condenser: { max_size: 80 } },
    });
    expect(first).toEqual(await repositories.settings.get(user.id));
    const second = await repositories.settings.update(user.id, {
      llm_api_key: null,
      agent_settings: { condenser: { keep_first: 2 } },
      disabled_skills: ['github'],
    });
    expect(second).toEqual({
      llm_model: 'gpt-5',
      agent_settings: { confirmation_mode: false, condenser: { max_size: 80, keep_first: 2 } },
      disabled_skills: ['github'],
    });
    expect(await repositories.settings.get(user.id)).toEqual(second);
  });

  it('stores the settings sealed, never in clear', async () => {
    const { repositories, database } = await each.shared();
    const user = await repositories.users.create();
    await repositories.settings.update(user.id, { llm_api_key: 'sk-visible-nowhere' });
    const row = await database.db.selectFrom('user_settings').selectAll().where('user_id', '=', user.id).execute();
    expect(row).toHaveLength(1);
    expect(JSON.stringify(row)).not.toContain('sk-visible-nowhere');
  });

  it('keeps every one of many concurrent updates, including the first ones', async () => {
    const { repositories } = await each.shared();
    const user = await repositories.users.create();
    await Promise.all(
      Array.from({ length: 12 }, (_, index) => repositories.settings.update(user.id, { [`key${index}`]: index })),
    );
    expect(Object.keys((await repositories.settings.get(user.id)) ?? {}).sort()).toEqual(
      Array.from({ length: 12 }, (_, index) => `key${index}`).sort(),
    );
  });

  it("one user never sees another's settings", async () => {
    const { repositories } = await each.shared();
    const [alice, bob] = await Promise.all([repositories.users.create(), repositories.users.create()]);
    await repositories.settings.update(alice.id, { llm_model: 'alice-model' });
    expect(await repositories.settings.get(bob.id)).toBeUndefined();
    await repositories.settings.update(bob.id, { llm_base_url: 'http://bob' });
    expect(await repositories.settings.get(alice.id)).toEqual({ llm_model: 'alice-model' });
  });
});
