import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeApi } from '../api/harness.ts';

/** OpenHands routes without a counterpart say what to use instead (501), never a bare 404. */
describeApi('OpenHands routes Bosun has no counterpart for', (api) => {
  it('switch_acp_model is a 501 naming switch_profile, for a signed-in user (401 without credentials)', async () => {
    const user = await api().user();
    const path = `/api/v1/app-conversations/${randomUUID()}/switch_acp_model`;
    const answer = await api().call(path, { method: 'POST', as: user, body: { model: 'x' } });
    expect(answer.status).toBe(501);
    expect(answer.body.detail).toMatch(/switch_profile/);
    expect((await api().call(path, { method: 'POST', body: { model: 'x' } })).status).toBe(401);
  });

  it('GET /api/v1/webhooks/secrets is a 501 naming the sandbox secret routes, and neither is in the OpenAPI document', async () => {
    const answer = await api().call('/api/v1/webhooks/secrets', { headers: { 'X-Session-API-Key': 'any' } });
    expect(answer.status).toBe(501);
    expect(answer.body.detail).toMatch(/\/api\/v1\/sandboxes\/\{sandbox_id\}\/settings\/secrets/);
    const paths = Object.keys((await api().call('/openapi.json')).body.paths);
    expect(paths.filter((path) => path.endsWith('switch_acp_model') || path === '/api/v1/webhooks/secrets')).toEqual(
      [],
    );
  });
});
