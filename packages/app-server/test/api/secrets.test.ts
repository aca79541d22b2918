import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { describeApi } from './harness.ts';

describeApi('custom secrets', (api) => {
  it('are created (201), found by search, updated and deleted, never with their value', async () => {
    const user = await api().user();
    const value = 'value-of-the-secret-7a1c';
    const created = await api().call('/api/v1/secrets', {
      method: 'POST',
      as: user,
      body: { name: 'DEPLOY_TOKEN', description: 'for deploys', value },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'DEPLOY_TOKEN', description: 'for deploys' });
    expect(created.text).not.toContain(value);

    const search = await api().call('/api/v1/secrets/search', { as: user });
    expect(search.status).toBe(200);
    expect(search.body).toMatchObject({
      items: [{ name: 'DEPLOY_TOKEN', description: 'for deploys' }],
      next_page_id: null,
    });
    expect(search.text).not.toContain(value);

    const updated = await api().call('/api/v1/secrets/DEPLOY_TOKEN', {
      method: 'PUT',
      as: user,
      body: { description: 'rotated', value: 'new-value-b2' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'DEPLOY_TOKEN', description: 'rotated' });
    expect(await api().repositories.secrets.value(user.id, 'DEPLOY_TOKEN')).toBe('new-value-b2');

    const renamed = await api().call('/api/v1/secrets/DEPLOY_TOKEN', {
      method: 'PUT',
      as: user,
      body: { name: 'RELEASE_TOKEN' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'RELEASE_TOKEN', description: 'rotated' });
    expect(await api().repositories.secrets.value(user.id, 'RELEASE_TOKEN')).toBe('new-value-b2');
    expect((await api().call('/api/v1/secrets/DEPLOY_TOKEN', { method: 'DELETE', as: user })).status).toBe(404);

    const byId = await api().call(`/api/v1/secrets/${renamed.body.id}`, {
      method: 'PUT',
      as: user,
      body: { description: 'by id' },
    });
    expect(byId.body).toMatchObject({ name: 'RELEASE_TOKEN', description: 'by id' });
    expect((await api().call(`/api/v1/secrets/${renamed.body.id}`, { method: 'DELETE', as: user })).status).toBe(200);
    expect((await api().call('/api/v1/secrets/search', { as: user })).body.items).toEqual([]);
  });

  it('refuse a name already taken with 409', async () => {
    const user = await api().user();
    const create = (name: string) =>
      api().call('/api/v1/secrets', { method: 'POST', as: user, body: { name, value: 'v' } });
    expect((await create('A')).status).toBe(201);
    expect((await create('B')).status).toBe(201);
    const again = await create('A');
    expect(again.status).toBe(409);
    expect(typeof again.body.detail).toBe('string');
    const rename = await api().call('/api/v1/secrets/B', { method: 'PUT', as: user, body: { name: 'A' } });
    expect(rename.status).toBe(409);
    expect(await api().repositories.secrets.value(user.id, 'B')).toBe('v');
  });

  it('are searched by name, a page at a time', async () => {
    const user = await api().user();
    for (const name of ['AWS_KEY', 'AWS_SECRET', 'GITHUB_PAT', 'NPM_TOKEN', 'aws_region']) {
      await api().call('/api/v1/secrets', { method: 'POST', as: user, body: { name, value: 'v' } });
    }
    const names = (answer: { body: { items: { name: string }[] } }) => answer.body.items.map((item) => item.name);
    const aws = await api().call('/api/v1/secrets/search?name__contains=aws', { as: user });
    expect(names(aws)).toEqual(['AWS_KEY', 'AWS_SECRET', 'aws_region']);
    const first = await api().call('/api/v1/secrets/search?limit=2', { as: user });
    expect(names(first)).toHaveLength(2);
    const second = await api().call(`/api/v1/secrets/search?limit=2&page_id=${first.body.next_page_id}`, { as: user });
    const third = await api().call(`/api/v1/secrets/search?limit=2&page_id=${second.body.next_page_id}`, { as: user });
    expect([...names(first), ...names(second), ...names(third)].sort()).toEqual(
      ['AWS_KEY', 'AWS_SECRET', 'GITHUB_PAT', 'NPM_TOKEN', 'aws_region'].sort(),
    );
    expect(third.body.next_page_id).toBeNull();
    const foreign = await api().call('/api/v1/secrets/search?page_id=not-a-page', { as: user });
    expect(foreign.status).toBe(422);
    expect(foreign.body.detail[0].loc).toEqual(['query', 'page_id']);
  });

  it('are not readable in the database file', async () => {
    if (api().dialect !== 'sqlite') return;
    const user = await api().user();
    const value = `plaintext-canary-${user.id}`;
    const description = `described-${user.id}`;
    await api().call('/api/v1/secrets', { method: 'POST', as: user, body: { name: 'CANARY', description, value } });
    await api().call('/api/v1/settings', { method: 'POST', as: user, body: { llm_api_key: `${value}-llm` } });
    const { dataDir } = api();
    const files = await Promise.all(
      (await readdir(dataDir)).map((file) => readFile(join(dataDir, file)).catch(() => Buffer.alloc(0))),
    );
    // The description is stored in clear: finding it shows the files are read where the values would be.
    expect(files.some((bytes) => bytes.includes(description))).toBe(true);
    expect(files.some((bytes) => bytes.includes(value))).toBe(false);
  });
});
