import type { WebClientConfig } from '@bosun/protocol';
import type { ApiRoutes } from './api-routes.ts';
import { shape } from './replies.ts';

/** The base URLs of the Git providers the web client knows (`providers_configured`): it is told their hosts. */
type GitUrls = Readonly<Record<'github' | 'gitlab' | 'bitbucket', string>>;

/** The web client's configuration: OpenHands' feature flags with Bosun's values (no billing, no SaaS parts). */
export function webClientConfig(gitUrls: GitUrls, updatedAt: string, authUrl: string | null = null): WebClientConfig {
  return {
    app_mode: 'oss',
    posthog_client_key: null,
    feature_flags: {
      enable_billing: false,
      hide_llm_settings: false,
      enable_jira: false,
      enable_jira_dc: false,
      enable_linear: false,
      hide_users_page: false,
      hide_billing_page: true,
      hide_integrations_page: false,
      hide_personal_workspaces: false,
      allow_user_llm_configuration: true,
      enable_acp: false,
      deployment_mode: 'self_hosted',
      enable_onboarding: false,
      enable_automations: false,
      enable_agent_canvas_banner: false,
    },
    providers_configured: ['github', 'gitlab', 'bitbucket'],
    provider_default_hosts: Object.fromEntries(
      Object.entries(gitUrls).map(([provider, url]) => [provider, hostOf(url)]),
    ),
    maintenance_start_time: null,
    auth_url: authUrl,
    recaptcha_site_key: null,
    faulty_models: [],
    error_message: null,
    updated_at: updatedAt,
    github_app_slug: null,
    gitlab_enabled: true,
    slack_enabled: false,
    email_enabled: false,
    email_change_enabled: false,
    acp_providers: [],
    kind: 'WebClientConfig',
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/**
 * `GET /api/v1/web-client/config`: the web client's first call, before anyone signs in (no auth, no secret).
 * `authUrl`: where to sign in (the OpenID Connect login route), when an issuer is configured.
 */
export function webClientConfigRoutes(gitUrls: GitUrls, authUrl: () => string | null = () => null): ApiRoutes {
  return (app) => {
    const updatedAt = new Date().toISOString();
    app.get(
      '/web-client/config',
      {
        config: { public: true },
        schema: {
          tags: ['Configuration'],
          summary: 'The web client’s configuration and feature flags',
          response: { 200: shape('WebClientConfig') },
          security: [],
        },
      },
      async () => webClientConfig(gitUrls, updatedAt, authUrl()),
    );
  };
}
