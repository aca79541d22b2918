import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { AppServerConfig, appServerConfig, appServerConfigProblems } from '../src/index.ts';

/** The app server's configuration schema: its defaults, the rules between keys, and URLs shown without passwords. */

describe('app server configuration', () => {
  it('defaults to the embedded product on 127.0.0.1:3000 with data in .bosun', () => {
    expect(appServerConfig()).toEqual({
      host: '127.0.0.1',
      port: 3000,
      data_dir: '.bosun',
      create_databases: true,
      migrate_on_start: true,
      secrets_key_previous: [],
      jwt_secret_previous: [],
      max_running_sandboxes: 10,
      sandbox_warm_pool_size: 0,
      sandbox_start_timeout: 60,
      sandbox_isolation: 'bubblewrap',
      sandbox_network: 'none',
      sandbox_allow_hosts: [],
      sandbox_memory_mb: 2048,
      sandbox_cpus: 1,
      sandbox_processes: 1024,
      sandbox_urls: 'auto',
      event_sweep_interval: 5,
      start_task_lease: 60,
      log_level: 'info',
      log_format: 'auto',
      headers_timeout: 30,
      request_timeout: 3600,
      body_idle_timeout: 60,
      keep_alive_timeout: 72,
      socket_ping_interval: 30,
      plugin_directory_refresh: 300,
      plugin_directory_featured: [],
      git_allow_private_hosts: false,
      marketplace_ref_ttl: 5,
      instance_marketplaces: [],
      oidc_scopes: 'openid email profile',
      oidc_providers: [],
    });
    expect(appServerConfig({ port: 0 }).port).toBe(0);
  });

  it('names every environment variable the issue promises after its key', () => {
    const keys = Object.keys(AppServerConfig.properties);
    for (const key of [
      'database_url',
      'redis_url',
      's3_endpoint',
      's3_bucket',
      's3_access_key_id',
      's3_secret_access_key',
      's3_region',
      'llm_model',
      'llm_base_url',
      'llm_api_key',
      'secrets_key',
      'jwt_secret',
      'public_url',
    ]) {
      expect(keys).toContain(key);
    }
  });

  it('marks every credential secret, so that it has no flag and is never echoed', () => {
    const secret = Object.entries(AppServerConfig.properties)
      .filter(([, schema]) => (schema as { secret?: boolean }).secret)
      .map(([key]) => key)
      .sort();
    expect(secret).toEqual([
      'git_bitbucket_app_client_secret',
      'git_github_app_client_secret',
      'git_github_app_private_key',
      'git_github_app_webhook_secret',
      'git_gitlab_app_client_secret',
      'jwt_secret',
      'jwt_secret_previous',
      'license',
      'llm_api_key',
      'oidc_client_secret',
      'runtime_api_key',
      's3_secret_access_key',
      'secrets_key',
      'secrets_key_previous',
    ]);
  });

  it('refuses S3 settings without a bucket, and half a credential pair', () => {
    expect(appServerConfigProblems(appServerConfig({ s3_bucket: 'b' }))).toEqual([]);
    expect(appServerConfigProblems(appServerConfig({ s3_endpoint: 'http://s3', s3_region: 'eu' }))).toEqual([
      's3_bucket: needed when s3_endpoint, s3_region are set',
    ]);
    expect(appServerConfigProblems(appServerConfig({ s3_bucket: 'b', s3_secret_access_key: 'k' }))).toEqual([
      's3_access_key_id, s3_secret_access_key: give both or neither',
    ]);
  });

  it('refuses half a Git provider app’s OAuth client (its tokens are renewed only with both)', () => {
    const app = { git_github_app_client_id: 'Iv1.abc', git_github_app_client_secret: 's' };
    expect(appServerConfigProblems(appServerConfig(app))).toEqual([]);
    expect(appServerConfigProblems(appServerConfig({ git_gitlab_app_client_secret: 's' }))).toEqual([
      'git_gitlab_app_client_id, git_gitlab_app_client_secret: give both or neither',
    ]);
  });

  it('refuses a GitHub App private key without the app’s ID, and an ID without its key', () => {
    expect(appServerConfigProblems(appServerConfig({ git_github_app_id: '42' }))).toEqual([
      'git_github_app_private_key: needed when git_github_app_id is set',
    ]);
    const { git_github_app_private_key: key, git_github_app_id: id } = AppServerConfig.properties;
    expect(Value.Check(key, 'not a key')).toBe(false);
    expect(Value.Check(id, 'my-app')).toBe(false);
  });

  it('refuses half a runtime service, and an allow-list the network setting does not use', () => {
    const service = { runtime_api_url: 'http://runtime:8080', runtime_api_key: 'k'.repeat(16) };
    expect(appServerConfigProblems(appServerConfig(service))).toEqual([]);
    expect(appServerConfigProblems(appServerConfig({ runtime_api_url: 'http://runtime:8080' }))).toEqual([
      'runtime_api_url, runtime_api_key: give both or neither',
    ]);
    const hosts = { sandbox_allow_hosts: ['api.openai.com:443'] };
    expect(appServerConfigProblems(appServerConfig({ ...hosts, sandbox_network: 'allow' }))).toEqual([]);
    expect(appServerConfigProblems(appServerConfig(hosts))).toEqual([
      'sandbox_allow_hosts: only used with sandbox_network allow (it is none)',
    ]);
  });

  it('refuses OpenID Connect settings without an issuer or a client id, and values that are not theirs', () => {
    const issuer = { oidc_issuer_url: 'https://auth.example.com/realms/bosun' };
    expect(appServerConfigProblems(appServerConfig({ ...issuer, oidc_client_id: 'bosun' }))).toEqual([]);
    expect(appServerConfigProblems(appServerConfig(issuer))).toEqual([
      'oidc_client_id: needed when oidc_issuer_url is set',
    ]);
    expect(appServerConfigProblems(appServerConfig({ oidc_client_secret: 's', oidc_providers: ['github'] }))).toEqual([
      'oidc_issuer_url: needed when oidc_client_id, oidc_client_secret or oidc_providers is set',
    ]);
    const { oidc_issuer_url, oidc_scopes, oidc_providers } = AppServerConfig.properties;
    expect(Value.Check(oidc_issuer_url, 'ftp://auth.example.com')).toBe(false);
    expect(Value.Check(oidc_scopes, 'email profile')).toBe(false);
    expect(Value.Check(oidc_scopes, 'openid email profile groups')).toBe(true);
    expect(Value.Check(oidc_providers, ['github', 'git hub'])).toBe(false);
  });
});
