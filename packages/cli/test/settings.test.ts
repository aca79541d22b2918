import { join } from 'node:path';
import { AgentServerConfig } from '@bosun/agent-server';
import { AppServerConfig } from '@bosun/app-server';
import { RuntimeApiConfig, sandboxSettings } from '@bosun/runtime';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { matches } from '../src/config/check.ts';
import { settingsHelp } from '../src/config/settings-help.ts';
import { SettingsError, loadSettings, settingsOf } from '../src/config/settings.ts';
import { scratchDir } from './scratch.ts';

/** The agent server's settings: flags over BOSUN_* variables over a --config file over defaults; bad values named. */

const scratch = scratchDir('bosun-settings-');
const file = (name: string, text: string) => scratch.write(name, text);

const load = (flags: Record<string, string>, env: Record<string, string> = {}) =>
  loadSettings(AgentServerConfig, { flags, env });

/** The problems `SettingsError` lists, or a failure if the settings loaded. */
async function problems(flags: Record<string, string>, env: Record<string, string> = {}): Promise<string[]> {
  const error = await load(flags, env).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof SettingsError)) throw new Error(`expected a SettingsError, got ${String(error)}`);
  return error.problems;
}

describe('agent server settings', () => {
  it('are the defaults when nothing is given', async () => {
    const { values, sources } = await load({});
    expect(values).toEqual({
      host: '127.0.0.1',
      port: 8000,
      data_dir: '.bosun',
      log_level: 'info',
      session_api_keys: [],
      secrets_key_previous: [],
      webhook_flush_ms: 100,
      webhook_batch_size: 50,
      allow_cors_origins: [],
      log_format: 'auto',
      headers_timeout: 30,
      request_timeout: 3600,
      body_idle_timeout: 60,
      keep_alive_timeout: 72,
      socket_ping_interval: 30,
      conversation_setup_timeout: 60,
      warm_up: true,
    });
    expect(sources.port).toBe('default');
  });

  it('take a flag over a variable over the file over the default, key by key', async () => {
    const config = await file('precedence.yaml', 'port: 1111\nhost: 0.0.0.0\ndata_dir: from-file\nlog_level: debug\n');
    const { values, sources } = await load(
      { config, port: '3333' },
      { BOSUN_PORT: '2222', BOSUN_HOST: '127.0.0.2', BOSUN_LOG_LEVEL: '  ' },
    );
    expect(values).toMatchObject({ port: 3333, host: '127.0.0.2', data_dir: 'from-file', log_level: 'debug' });
    expect('llm_model' in sources).toBe(false);
    expect(sources).toMatchObject({
      port: 'flag',
      host: 'env',
      data_dir: 'file',
      log_level: 'file',
    });
  });

  it('read a JSON file named by BOSUN_CONFIG, lists from the file and comma-separated lists from variables', async () => {
    const config = await file('server.json', JSON.stringify({ session_api_keys: ['a', 'b'], llm_model: 'gpt-4o' }));
    const fromFile = await load({}, { BOSUN_CONFIG: config });
    expect(fromFile.values).toMatchObject({ session_api_keys: ['a', 'b'], llm_model: 'gpt-4o' });
    const fromEnv = await load({}, { BOSUN_CONFIG: config, BOSUN_SESSION_API_KEYS: ' one, ,two ' });
    expect(fromEnv.values.session_api_keys).toEqual(['one', 'two']);
  });

  it('name the key and where a bad value came from, every one of them', async () => {
    expect(await problems({ port: 'abc' }, { BOSUN_LOG_LEVEL: 'loud' })).toEqual([
      "--port: must be an integer from 0 to 65535, got 'abc'",
      "BOSUN_LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent, got 'loud'",
    ]);
    expect(await problems({}, { BOSUN_PORT: '70000' })).toEqual([
      "BOSUN_PORT: must be an integer from 0 to 65535, got '70000'",
    ]);
    const config = await file('bad.json', JSON.stringify({ port: '8000', session_api_keys: 'k' }));
    expect(await problems({ config })).toEqual([
      `${config}: port: must be an integer from 0 to 65535, got "8000"`,
      `${config}: session_api_keys: must be a list (comma-separated in a flag or variable) of non-empty strings`,
    ]);
  });

  it('never echo the value of a secret setting', async () => {
    const config = await file('secret.yaml', 'secrets_key: 12345\nllm_api_key: [sk-do-not-show]\n');
    const found = await problems({ config });
    expect(found).toEqual([`${config}: llm_api_key: must be a string`, `${config}: secrets_key: must be a string`]);
    expect(found.join('\n')).not.toMatch(/12345|sk-do-not-show/);
  });

  it('refuse a file that cannot be used, saying why', async () => {
    const missing = join(scratch.dir, 'missing.yaml');
    expect(await problems({ config: missing })).toEqual([`--config: cannot read ${missing} (ENOENT)`]);
    const typo = await file('typo.yaml', 'prot: 8000\n');
    expect(await problems({ config: typo })).toEqual([
      expect.stringMatching(new RegExp(`^${typo}: prot: not a setting \\(settings: host, port, data_dir, `)),
    ]);
    const list = await file('list.yaml', '- port\n');
    expect(await problems({ config: list })).toEqual([`${list}: must be a mapping of settings (key: value)`]);
    const broken = await file('broken.json', '{"port": ');
    expect(await problems({ config: broken })).toEqual([expect.stringMatching(/broken\.json: not valid JSON: /)]);
    const badYaml = await file('broken.yaml', 'port: [8000\n');
    expect(await problems({ config: badYaml })).toEqual([expect.stringMatching(/broken\.yaml: not valid YAML: /)]);
  });

  it('help lists every key with its flag, variable, default and meaning', () => {
    const help = settingsHelp(AgentServerConfig);
    for (const setting of settingsOf(AgentServerConfig)) {
      const line = help.split('\n').find((text) => text.includes(` ${setting.env} `) || text.endsWith(setting.env));
      expect(line, setting.key).toBeDefined();
      expect(line).toContain(`${setting.key}:`);
      // A switch on by default is shown as it is turned off: --[no-]name.
      if (setting.flag) expect(line).toMatch(new RegExp(`--(\\[no-\\])?${setting.flag} `));
    }
    expect(help).toContain('--port  BOSUN_PORT  port: (default: 8000)\n      Port to listen on');
    expect(help).toMatch(/ {2}BOSUN_SESSION_API_KEYS {2}session_api_keys:\n.*Secret: no flag/);
  });
});

describe('the settings check', () => {
  it('applies the keywords settings use, and refuses a schema with another one', () => {
    expect(matches(AgentServerConfig.properties.port, 1.5)).toBe(false);
    expect(matches(AgentServerConfig.properties.port, 65535)).toBe(true);
    expect(matches(AgentServerConfig.properties.session_api_keys, ['a', ''])).toBe(false);
    expect(matches(AgentServerConfig.properties.log_level, 'warn')).toBe(true);
    expect(() => matches(Type.Object({}), {})).toThrow(/does not know/);
  });

  it('takes an object setting (the runtime API’s kubernetes) as JSON from its variable, and refuses what is no object', async () => {
    const kubernetes = { namespace: 'bosun-sandboxes', image: 'bosun:1', runtime_base_url: 'https://sb.example.com' };
    const loaded = await loadSettings(RuntimeApiConfig, {
      flags: {},
      env: { BOSUN_RUNTIME_BACKEND: 'kubernetes', BOSUN_KUBERNETES: JSON.stringify(kubernetes) },
    });
    expect(loaded.values.kubernetes).toEqual(kubernetes);
    for (const bad of ['[1]', '"text"', 'not json']) {
      const refused = await loadSettings(RuntimeApiConfig, { flags: {}, env: { BOSUN_KUBERNETES: bad } }).catch(
        (error: unknown) => error,
      );
      expect(refused, bad).toBeInstanceOf(SettingsError);
      expect((refused as SettingsError).problems, bad).toEqual([
        expect.stringMatching(/^BOSUN_KUBERNETES: must be an object/),
      ]);
    }
  });
});

describe('the settings the app server and the runtime service share', () => {
  const services = { app: AppServerConfig, runtime: RuntimeApiConfig };
  const refusals = async (schema: typeof AppServerConfig | typeof RuntimeApiConfig, env: Record<string, string>) =>
    loadSettings(schema, { flags: {}, env }).then(
      () => [],
      (error: unknown) => (error as SettingsError).problems,
    );

  it('are one definition: the same range, default and meaning in both', () => {
    for (const key of Object.keys(sandboxSettings())) {
      expect(AppServerConfig.properties[key as keyof typeof AppServerConfig.properties], key).toEqual(
        RuntimeApiConfig.properties[key as keyof typeof RuntimeApiConfig.properties],
      );
    }
    expect(AppServerConfig.properties.runtime_api_key.minLength).toBe(
      RuntimeApiConfig.properties.runtime_api_key.minLength,
    );
  });

  it('take and refuse the same values in both', async () => {
    for (const [name, schema] of Object.entries(services)) {
      // Once 0.01 CPU passed the app server (any rate above 0) while the runtime service refused it.
      expect(await refusals(schema, { BOSUN_SANDBOX_CPUS: '0.01' }), name).toEqual([
        "BOSUN_SANDBOX_CPUS: must be a number from 0.05 to 256, got '0.01'",
      ]);
      // And an IPv6 address in brackets passed the app server only.
      const loaded = await loadSettings(schema, {
        flags: {},
        env: { BOSUN_SANDBOX_NETWORK: 'allow', BOSUN_SANDBOX_ALLOW_HOSTS: '[::1]:8080,llm.internal:443' },
      });
      expect(loaded.values.sandbox_allow_hosts, name).toEqual(['[::1]:8080', 'llm.internal:443']);
    }
  });
});
