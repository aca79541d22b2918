import { expect, it } from 'vitest';
import { describeApi } from './harness.ts';

describeApi(
  'secrets in logs',
  (api) => {
    it('never appear in the log, whatever route carries them', async () => {
      const user = await api().user();
      const canaries = {
        secret: `secret-canary-${user.id}`,
        llm: `sk-llm-canary-${user.id}`,
        git: `ghp_canary_${user.id.replace(/-/g, '')}`,
      };
      await api().call('/api/v1/secrets', {
        method: 'POST',
        as: user,
        body: { name: 'LOGGED', value: canaries.secret },
      });
      await api().call('/api/v1/secrets/LOGGED', { method: 'PUT', as: user, body: { value: `${canaries.secret}-2` } });
      await api().call('/api/v1/settings', { method: 'POST', as: user, body: { llm_api_key: canaries.llm } });
      await api().call('/api/v1/secrets/git-providers', {
        method: 'POST',
        as: user,
        body: { provider_tokens: { github: { token: canaries.git } } },
      });
      await api().call('/api/v1/settings', { method: 'POST', as: user, body: { llm_api_key: canaries.llm, bogus: 1 } });
      const made = await api().call('/api/v1/keys', { method: 'POST', as: user, body: {} });
      const token = await api().repositories.sessions.createSignInToken(user.id, 60_000);
      await api().call(`/api/v1/auth/sign-in?token=${token}`);
      const log = api().logs.join('');
      // The requests are in the log (so the values would be, were they logged).
      expect(log).toContain('/api/v1/secrets/git-providers');
      expect(log).toContain('/api/v1/auth/sign-in?token=<redacted>');
      for (const canary of [...Object.values(canaries), user.key, made.body.key, token]) {
        expect(log).not.toContain(canary);
      }
    });
  },
  { config: { log_level: 'debug' } },
);
