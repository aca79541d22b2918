import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type AppDatabase,
  GENERATED_KEY_FILE,
  KeyRing,
  SecretsKeyError,
  createRepositories,
  keyIdOf,
  loadKeyRing,
  newSecretsKey,
  openDatabase,
} from '../../src/data/index.ts';
import { sealBinding } from '../../src/data/secret-cipher.ts';
import { describeEachDatabase } from '../support/databases.ts';

const dirs: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'bosun-keys-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('the key ring', () => {
  const ring = new KeyRing(newSecretsKey());

  it('opens what it sealed, with a fresh IV each time and the key id in the value', () => {
    const binding = sealBinding('custom_secrets', 'user-1', 'secret-1');
    const first = ring.seal(binding, 'the value');
    const second = ring.seal(binding, 'the value');
    expect(first.sealed).not.toBe(second.sealed);
    expect(first.sealed.split('.')[1]).toBe(ring.currentKeyId);
    expect(first.keyId).toBe(ring.currentKeyId);
    expect(first.sealed).not.toContain('the value');
    expect(ring.open(binding, first.sealed)).toBe('the value');
    expect(ring.open(binding, second.sealed)).toBe('the value');
  });

  it('refuses a value moved to another row, a damaged one and one sealed with another key', () => {
    const { sealed } = ring.seal(sealBinding('custom_secrets', 'alice', 's1'), 'alice secret');
    expect(() => ring.open(sealBinding('custom_secrets', 'bob', 's1'), sealed)).toThrow(SecretsKeyError);
    const parts = sealed.split('.');
    const ciphertext = parts[4] as string;
    parts[4] = `${ciphertext.startsWith('A') ? 'B' : 'A'}${ciphertext.slice(1)}`;
    const damaged = parts.join('.');
    expect(() => ring.open(sealBinding('custom_secrets', 'alice', 's1'), damaged)).toThrow(/does not authenticate/);
    const other = new KeyRing(newSecretsKey());
    expect(() => other.open(sealBinding('custom_secrets', 'alice', 's1'), sealed)).toThrow(
      new RegExp(`sealed with secrets key ${ring.currentKeyId}, which is not configured`),
    );
    expect(() => ring.open('x', 'garbage')).toThrow(SecretsKeyError);
  });

  it('takes the configured key, else derives one from the JWT secret, else generates a 0600 file once', async () => {
    const dataDir = await tempDir();
    const key = newSecretsKey();
    expect(loadKeyRing({ dataDir, secretsKey: key.toString('base64'), jwtSecret: 'j'.repeat(32) }).currentKeyId).toBe(
      keyIdOf(key),
    );
    const fromJwt = loadKeyRing({ dataDir, jwtSecret: 'a-long-enough-jwt-secret' });
    expect(loadKeyRing({ dataDir, jwtSecret: 'a-long-enough-jwt-secret' }).currentKeyId).toBe(fromJwt.currentKeyId);
    expect(loadKeyRing({ dataDir, jwtSecret: 'another-long-jwt-secret' }).currentKeyId).not.toBe(fromJwt.currentKeyId);
    expect(await readdir(dataDir)).toEqual([]);
    const generated = loadKeyRing({ dataDir });
    expect((await stat(join(dataDir, GENERATED_KEY_FILE))).mode & 0o777).toBe(0o600);
    expect(loadKeyRing({ dataDir }).currentKeyId).toBe(generated.currentKeyId);
    expect(await readdir(dataDir)).toEqual([GENERATED_KEY_FILE]);
  });

  it('opens values sealed with a key derived from a JWT secret the install no longer uses', () => {
    const derived = loadKeyRing({ dataDir: '/nonexistent', jwtSecret: 'the-old-jwt-secret-value' });
    const { sealed } = derived.seal('binding', 'kept');
    const explicit = loadKeyRing({
      dataDir: '/nonexistent',
      secretsKey: newSecretsKey().toString('base64'),
      previousJwtSecrets: ['the-old-jwt-secret-value'],
    });
    expect(explicit.open('binding', sealed)).toBe('kept');
    expect(explicit.currentKeyId).not.toBe(derived.currentKeyId);
  });

  it('refuses malformed keys with a message naming which', async () => {
    const dataDir = await tempDir();
    expect(() => loadKeyRing({ dataDir, secretsKey: 'too-short' })).toThrow(/the secrets key must be 32 random bytes/);
    expect(() =>
      loadKeyRing({ dataDir, secretsKey: newSecretsKey().toString('base64'), previousSecretsKeys: ['x'] }),
    ).toThrow(/previous secrets key #1 must be 32 random bytes/);
    expect(() => loadKeyRing({ dataDir, jwtSecret: 'short' })).toThrow(/JWT secret must be at least 16/);
  });
});

describeEachDatabase('sealed values at rest', (each) => {
  const storeEverything = async (database: AppDatabase, keyRing: KeyRing) => {
    const repositories = createRepositories(database, keyRing);
    const user = await repositories.users.create();
    await repositories.settings.update(user.id, { llm_api_key: 'sk-settings-plaintext-marker' });
    await repositories.secrets.create(user.id, { name: 'CUSTOM', value: 'custom-plaintext-marker' });
    await repositories.providerTokens.set(user.id, 'github', { token: 'ghp_provider_plaintext_marker' });
    const signIn = { token: 'glpat_sign_in_marker', host: null, source: 'sign-in:x' };
    await repositories.providerTokens.setFromSignIn(user.id, 'gitlab', { ...signIn, refreshToken: 'refresh_marker' });
    return user.id;
  };
  const readEverything = async (database: AppDatabase, keyRing: KeyRing, userId: string) => {
    const repositories = createRepositories(database, keyRing);
    return {
      settings: await repositories.settings.get(userId),
      secrets: await repositories.secrets.values(userId),
      token: (await repositories.providerTokens.token(userId, 'github'))?.token,
      refresh: (await repositories.providerTokens.stored(userId, 'gitlab'))?.refresh?.token,
    };
  };
  const everything = {
    settings: { llm_api_key: 'sk-settings-plaintext-marker' },
    secrets: { CUSTOM: 'custom-plaintext-marker' },
    token: 'ghp_provider_plaintext_marker',
    refresh: 'refresh_marker',
  };
  const keyIds = async (database: AppDatabase) => {
    const ids = new Set<string>();
    for (const table of ['user_settings', 'custom_secrets', 'provider_tokens'] as const) {
      for (const row of await database.db.selectFrom(table).select('key_id').execute()) ids.add(row.key_id);
    }
    return [...ids];
  };

  it('are sealed again with the new key at open, readable after the old key is dropped', async () => {
    const target = await each.target();
    const oldKey = newSecretsKey();
    const oldRing = new KeyRing(oldKey);
    const first = await each.open({ target, keyRing: oldRing });
    const userId = await storeEverything(first, oldRing);
    await first.close();

    const newKey = newSecretsKey();
    const rotating = new KeyRing(newKey, [oldKey]);
    const second = await each.open({ target, keyRing: rotating });
    expect(await keyIds(second)).toEqual([rotating.currentKeyId]);
    expect(await readEverything(second, rotating, userId)).toEqual(everything);
    await second.close();

    const rotated = new KeyRing(newKey);
    const third = await each.open({ target, keyRing: rotated });
    expect(await readEverything(third, rotated, userId)).toEqual(everything);
  });

  it('refuses at open a key that did not seal what is stored, and changes nothing', async () => {
    const target = await each.target();
    const right = new KeyRing(newSecretsKey());
    const first = await each.open({ target, keyRing: right });
    const userId = await storeEverything(first, right);
    await first.close();
    const wrong = new KeyRing(newSecretsKey(), [], 'the key in /somewhere/secrets.key');
    const refused = openDatabase({ dataDir: target.dataDir, url: target.url, keyRing: wrong });
    await expect(refused).rejects.toThrow(SecretsKeyError);
    await expect(refused).rejects.toThrow(
      `sealed with key ${right.currentKeyId}, but the key in /somewhere/secrets.key is key ${wrong.currentKeyId}`,
    );
    const reopened = await each.open({ target, keyRing: right });
    expect(await readEverything(reopened, right, userId)).toEqual(everything);
  });

  it("a sealed value copied into another user's row does not open there", async () => {
    const { database, repositories } = await each.shared();
    const [alice, bob] = await Promise.all([repositories.users.create(), repositories.users.create()]);
    await repositories.secrets.create(alice.id, { name: 'S', value: 'alice only' });
    await repositories.secrets.create(bob.id, { name: 'S', value: 'bob' });
    const stolen = await database.db
      .selectFrom('custom_secrets')
      .select('sealed')
      .where('user_id', '=', alice.id)
      .executeTakeFirstOrThrow();
    await database.db
      .updateTable('custom_secrets')
      .set({ sealed: stolen.sealed })
      .where('user_id', '=', bob.id)
      .execute();
    await expect(repositories.secrets.value(bob.id, 'S')).rejects.toThrow(SecretsKeyError);
  });

  if (each.dialect === 'sqlite') {
    it('never appear in the SQLite files, neither in clear nor, after a rotation, sealed with the old key', async () => {
      const target = await each.target();
      const oldKey = newSecretsKey();
      const oldRing = new KeyRing(oldKey);
      const database = await each.open({ target, keyRing: oldRing });
      await storeEverything(database, oldRing);
      const fileBytes = async () => {
        const names = (await readdir(target.dataDir)).filter((name) => name.startsWith('app.db'));
        return Buffer.concat(await Promise.all(names.map((name) => readFile(join(target.dataDir, name)))));
      };
      for (const marker of [
        'sk-settings-plaintext-marker',
        'custom-plaintext-marker',
        'ghp_provider_plaintext_marker',
      ]) {
        expect((await fileBytes()).includes(marker)).toBe(false);
      }
      const oldSealed = (await database.db.selectFrom('custom_secrets').select('sealed').executeTakeFirstOrThrow())
        .sealed;
      const oldCiphertext = oldSealed.split('.')[4] as string;
      expect((await fileBytes()).includes(oldCiphertext)).toBe(true);
      await database.close();
      const rotating = new KeyRing(newSecretsKey(), [oldKey]);
      const rotated = await each.open({ target, keyRing: rotating });
      expect((await fileBytes()).includes(oldCiphertext)).toBe(false);
      await rotated.close();
    });
  }
});
