import { beforeAll, expect, it } from 'vitest';
import { type CallOptions, type TestUser, describeApi } from './harness.ts';

type Loc = (string | number)[];
const many = Array.from({ length: 101 }, (_, index) => `id=s${index}`).join('&');

/** Malformed requests of the sandbox routes (none starts a sandbox), each with where its 422 must point. */
const MALFORMED: { path: string; options?: CallOptions; loc: Loc }[] = [
  { path: '/api/v1/sandboxes/search?limit=0', loc: ['query', 'limit'] },
  { path: '/api/v1/sandboxes/search?limit=many', loc: ['query', 'limit'] },
  { path: '/api/v1/sandboxes/search?page_id=not-a-page', loc: ['query', 'page_id'] },
  { path: '/api/v1/sandboxes', loc: ['query', 'id'] },
  { path: `/api/v1/sandboxes?${many}`, loc: ['query', 'id'] },
  { path: '/api/v1/sandboxes?sandbox_spec_id=nope', options: { method: 'POST' }, loc: ['query', 'sandbox_spec_id'] },
  {
    path: '/api/v1/sandboxes',
    options: { method: 'POST', body: { sandbox_spec_id: 'nope' } },
    loc: ['body', 'sandbox_spec_id'],
  },
  {
    path: '/api/v1/sandboxes?sandbox_spec_id=bosun-local',
    options: { method: 'POST', body: { sandbox_spec_id: 'other' } },
    loc: ['query', 'sandbox_spec_id'],
  },
  { path: '/api/v1/sandboxes', options: { method: 'POST', body: { image: 'x' } }, loc: ['body', 'image'] },
  { path: '/api/v1/sandboxes', options: { method: 'POST', body: [] }, loc: ['body'] },
  { path: '/api/v1/sandboxes/bad%20id/pause', options: { method: 'POST' }, loc: ['path', 'sandbox_id'] },
  { path: '/api/v1/sandboxes/bad.id/resume', options: { method: 'POST' }, loc: ['path', 'sandbox_id'] },
  { path: '/api/v1/sandboxes/abc?sandbox_id=def', options: { method: 'DELETE' }, loc: ['query', 'sandbox_id'] },
  { path: '/api/v1/sandbox-specs/search?limit=101', loc: ['query', 'limit'] },
  { path: '/api/v1/sandbox-specs/search?page_id=x', loc: ['query', 'page_id'] },
  { path: '/api/v1/sandbox-specs', loc: ['query', 'id'] },
];

describeApi('sandbox routes: malformed input and unknown ids', (api) => {
  let user: TestUser;
  beforeAll(async () => {
    user = await api().user();
  });

  it.each(MALFORMED)('$options.method $path: 422 where it is wrong', async ({ path, options = {}, loc }) => {
    const answer = await api().call(path, { ...options, as: user });
    expect(answer.status).toBe(422);
    expect(answer.body.detail.map((item: { loc: Loc }) => item.loc)).toContainEqual(loc);
    for (const item of answer.body.detail) expect(Object.keys(item).sort()).toEqual(['loc', 'msg', 'type']);
    expect((await api().call('/api/v1/sandboxes/search', { as: user })).body.items).toEqual([]);
  });

  it('ignores unknown query parameters (as FastAPI does), still checking the known ones', async () => {
    const ignored = await api().call('/api/v1/sandboxes/search?color=red&sort=newest', { as: user });
    expect(ignored.status, ignored.text).toBe(200);
    expect(ignored.body.items).toEqual([]);
    const known = await api().call('/api/v1/sandboxes/search?color=red&limit=0', { as: user });
    expect(known.status).toBe(422);
    expect(known.body.detail.map((item: { loc: Loc }) => item.loc)).toEqual([['query', 'limit']]);
  });

  it('answers 404 with a detail for unknown sandboxes, null in a batch get, and OpenHands’ delete query', async () => {
    for (const [method, path] of [
      ['POST', '/api/v1/sandboxes/nosuchsandbox/pause'],
      ['POST', '/api/v1/sandboxes/nosuchsandbox/resume'],
      ['DELETE', '/api/v1/sandboxes/nosuchsandbox'],
      ['DELETE', '/api/v1/sandboxes/nosuchsandbox?sandbox_id=nosuchsandbox'],
    ] as const) {
      const answer = await api().call(path, { method, as: user });
      expect(answer, `${method} ${path}`).toMatchObject({ status: 404, body: { detail: 'Sandbox not found' } });
    }
    expect((await api().call('/api/v1/sandboxes?id=a&id=b', { as: user })).body).toEqual([null, null]);
  });

  it('answers 409 to resuming a sandbox whose workspace is gone (MISSING)', async () => {
    const id = `gone${user.id.replaceAll('-', '').slice(0, 12)}`;
    await api().repositories.sandboxes.create({ id, userId: user.id, specId: 'bosun-local', status: 'PAUSED' });
    // Started once by the runtime, which no longer has it (its workspace removed with it).
    await api().repositories.sandboxes.update(id, { runtime_id: 'unknown-to-the-runtime' });
    const [missing] = (await api().call(`/api/v1/sandboxes?id=${id}`, { as: user })).body;
    expect(missing).toMatchObject({ status: 'MISSING', session_api_key: null, exposed_urls: null });
    const resumed = await api().call(`/api/v1/sandboxes/${id}/resume`, { method: 'POST', as: user });
    expect(resumed).toMatchObject({ status: 409, body: { detail: expect.stringContaining('workspace') } });
    expect((await api().call(`/api/v1/sandboxes/${id}`, { method: 'DELETE', as: user })).status).toBe(200);
  });

  it('lists the built-in local spec, by search and by id', async () => {
    const search = await api().call('/api/v1/sandbox-specs/search', { as: user });
    expect(search.body).toEqual({
      items: [expect.objectContaining({ id: 'bosun-local', initial_env: {}, command: null })],
      next_page_id: null,
    });
    const batch = await api().call('/api/v1/sandbox-specs?id=bosun-local&id=unknown', { as: user });
    expect(batch.body).toEqual([search.body.items[0], null]);
  });

  it('refuses the routes without a key', async () => {
    for (const path of ['/api/v1/sandboxes/search', '/api/v1/sandbox-specs/search']) {
      expect((await api().call(path)).status).toBe(401);
    }
  });
});

describeApi(
  'sandbox starts over the rate limit',
  (api) => {
    it('answers 429 with Retry-After once the user has started (or tried to start) their share', async () => {
      const [user, other] = await api().users(2);
      const start = (who: TestUser) =>
        api().call('/api/v1/sandboxes', { method: 'POST', as: who, body: { sandbox_spec_id: 'no-such-spec' } });
      expect((await start(user)).status).toBe(422);
      const limited = await start(user);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.body.detail).toMatch(/Too many requests/);
      const resume = await api().call('/api/v1/sandboxes/any/resume', { method: 'POST', as: user });
      expect(resume.status).toBe(429);
      expect((await start(other)).status).toBe(422);
    });
  },
  { rateLimits: { sandbox_start: { limit: 1, windowMs: 60_000 } } },
);
