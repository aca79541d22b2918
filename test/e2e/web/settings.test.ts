import { describe, expect, it } from 'vitest';
import { expectAccessible, expectNoSidewaysScroll, screenshot, visible } from './support/browser.ts';
import { useWebSuite } from './support/suite.ts';

/**
 * Settings in the browser against the real app server: the LLM (saved, then tested against llm-replay), secrets
 * (added, edited, deleted; never shown back) and API keys (shown once, then working against the API, revoked).
 * Each change is checked where it lands: the API's answer.
 */
const suite = useWebSuite({ script: { turns: [{ content: 'Hello from the scripted model.' }], repeat_last: true } });

describe('settings in the browser', { timeout: 120_000 }, () => {
  it('sets the LLM: model, base URL and key saved, and Test shows the model answering', async () => {
    const page = await suite.signedInPage();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL((url) => url.pathname === '/settings/llm');
    await visible(page.getByRole('heading', { name: 'Language model' }));
    await expectAccessible(page, 'the LLM settings');

    await page.getByRole('combobox', { name: 'Model' }).fill('openai/scripted');
    await page.getByRole('combobox', { name: 'Model' }).press('Escape');
    await page.getByRole('textbox', { name: 'Base URL' }).fill(suite.llm.baseUrl);
    await page.getByLabel('API key', { exact: true }).fill('sk-settings-e2e');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await visible(page.getByText('Saved: new conversations use this model.'));
    const settings = await suite.app.api.get('/api/v1/settings');
    expect(settings).toMatchObject({ llm_model: 'openai/scripted', llm_base_url: suite.llm.baseUrl });
    expect(settings.llm_api_key_set).toBe(true);
    // The key is never shown back: only that one is set.
    await page.reload();
    await visible(page.getByRole('button', { name: 'Replace API key' }));
    expect(await page.content()).not.toContain('sk-settings-e2e');

    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await visible(page.getByText('It works.'));
    await visible(page.getByText('Hello from the scripted model.'));
    await screenshot(page, 'settings-llm');
  });

  it('adds a secret, edits its description, and deletes it', async () => {
    const page = await suite.signedInPage();
    await page.goto('/settings/secrets');
    await visible(page.getByRole('heading', { name: 'Add a secret' }));
    await expectAccessible(page, 'the secrets settings');
    await page.getByRole('textbox', { name: 'Name' }).fill('WEATHER_KEY');
    await page.getByLabel('Value').fill('weather-secret-value');
    await page.getByRole('textbox', { name: 'Description' }).fill('The weather service');
    await page.getByRole('button', { name: 'Add secret' }).click();
    await visible(page.getByText('WEATHER_KEY'));
    await visible(page.getByText(/The weather service/));
    expect((await suite.app.api.get('/api/v1/secrets/search')).items.map((secret) => secret.name)).toContain(
      'WEATHER_KEY',
    );
    expect(await page.content()).not.toContain('weather-secret-value');
    await screenshot(page, 'settings-secrets');

    await page.getByRole('button', { name: 'Edit WEATHER_KEY' }).click();
    const editing = page.getByRole('dialog');
    await editing.getByRole('textbox', { name: 'Description' }).fill('The weather service, v2');
    await editing.getByRole('button', { name: 'Save' }).click();
    await editing.waitFor({ state: 'hidden' });
    await visible(page.getByText(/The weather service, v2/));

    await page.getByRole('button', { name: 'Delete WEATHER_KEY' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete the secret WEATHER_KEY?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    // While a dialog is open the rest of the page is hidden from the accessibility tree: the dialog goes first.
    await confirm.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Delete WEATHER_KEY' }).waitFor({ state: 'detached' });
    expect((await suite.app.api.get('/api/v1/secrets/search')).items.map((secret) => secret.name)).not.toContain(
      'WEATHER_KEY',
    );
  });

  it('creates an API key shown once that works against the API, then revokes it', async () => {
    const page = await suite.signedInPage();
    await page.goto('/settings/api-keys');
    await visible(page.getByRole('heading', { name: 'API keys', level: 2 }));
    await expectAccessible(page, 'the API keys settings');
    await page.getByRole('textbox', { name: 'Name' }).fill('ci-pipeline');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const created = page.getByRole('region', { name: 'Your new API key' });
    const key = await (await visible(created.getByRole('textbox'))).inputValue();
    expect(key).toMatch(/^sk-/);
    const me = await fetch(`${suite.app.url}/api/v1/users/me`, { headers: { authorization: `Bearer ${key}` } });
    expect(me.status).toBe(200);
    await screenshot(page, 'settings-api-key-created');
    await created.getByRole('button', { name: 'Done' }).click();
    await created.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(key);

    await page.getByRole('button', { name: 'Revoke ci-pipeline' }).click();
    const revoke = page.getByRole('dialog', { name: 'Revoke “ci-pipeline”?' });
    await revoke.getByRole('button', { name: 'Revoke' }).click();
    // While a dialog is open the rest of the page is hidden from the accessibility tree: the dialog goes first.
    await revoke.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Revoke ci-pipeline' }).waitFor({ state: 'detached' });
    const after = await fetch(`${suite.app.url}/api/v1/users/me`, { headers: { authorization: `Bearer ${key}` } });
    expect(after.status).toBe(401);
    await screenshot(page, 'settings-api-keys');
  });

  it('reads on a phone-sized window and in dark mode: home, settings and sign-in pass axe-core', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await suite.signedInPage({ width: 390, height: 844, colorScheme });
      await visible(page.getByRole('textbox', { name: 'What should the agent do?' }));
      await expectAccessible(page, `the home page (390 px, ${colorScheme})`);
      await expectNoSidewaysScroll(page, 'the home page at 390 px');
      await screenshot(page, `phone-${colorScheme}-home`);
      await page.goto('/settings/llm');
      await visible(page.getByRole('heading', { name: 'Language model' }));
      await expectAccessible(page, `the LLM settings (390 px, ${colorScheme})`);
      await expectNoSidewaysScroll(page, 'the LLM settings at 390 px');
      await screenshot(page, `phone-${colorScheme}-settings`);
    }
    const signedOut = await suite.page({ width: 390, height: 844, colorScheme: 'dark' });
    await signedOut.goto('/');
    await visible(signedOut.getByRole('heading', { name: 'Sign in' }));
    await expectAccessible(signedOut, 'the sign-in page (390 px, dark)');
    await screenshot(signedOut, 'phone-dark-sign-in');
  });
});
