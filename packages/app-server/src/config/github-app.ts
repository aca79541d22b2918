import { createPrivateKey } from 'node:crypto';
import { url, optional } from './fields.ts';

/**
 * The GitHub App's own settings, beside its OAuth client (`git_github_app_client_id`, `..._client_secret`): the
 * keys of the `<auth-provider>-app` secret (app-id, app-slug, private-key, webhook-secret), each a setting, the
 * secret ones read from files as `BOSUN_<KEY>_FILE`. With the private key the server signs the app's JWT and mints
 * installation tokens; with the webhook secret it takes the app's webhooks.
 */
export const GITHUB_APP_SETTINGS = {
  git_github_app_id: optional({
    pattern: '^[0-9]+$',
    expected: 'a number',
    description: "The GitHub App's ID (app-id): the issuer of the JWTs it signs (default: its client ID).",
  }),
  git_github_app_slug: optional({
    pattern: '^[A-Za-z0-9_.-]+$',
    expected: "the app's URL name",
    description: "The app's URL name (app-slug): where it is installed, <git_github_url>/apps/<slug>.",
  }),
  git_github_app_private_key: optional({
    pattern: '-----BEGIN [A-Z ]*PRIVATE KEY-----',
    expected: 'a PEM private key',
    secret: true,
    description:
      "The app's private key (private-key, PEM text): signs its JWTs, which mint installation tokens for " +
      "organization skills repositories the user's own token cannot read.",
  }),
  git_github_app_webhook_secret: optional({
    minLength: 1,
    secret: true,
    description: "The app's webhook secret (webhook-secret): its webhooks are taken only signed with it.",
  }),
  git_github_app_api_url: url(
    ['http', 'https'],
    "The REST API the app's requests go to (default: https://api.github.com, or <git_github_url>/api/v3 for " +
      'GitHub Enterprise).',
  ),
};

export interface GitHubAppSettings {
  git_github_app_id?: string | undefined;
  git_github_app_client_id?: string | undefined;
  git_github_app_private_key?: string | undefined;
}

/** A PEM given in one line with `\n` escapes (as some secret stores keep it) read as the PEM it is. */
export function pemOf(text: string): string {
  return text.includes('\n') ? text : text.replaceAll('\\n', '\n');
}

/** What the app's keys say together that none says alone: one line per problem, naming the keys. */
export function gitHubAppProblems(config: GitHubAppSettings): string[] {
  const key = config.git_github_app_private_key;
  if (key === undefined) {
    return config.git_github_app_id === undefined
      ? []
      : ['git_github_app_private_key: needed when git_github_app_id is set'];
  }
  const problems: string[] = [];
  if (config.git_github_app_id === undefined && config.git_github_app_client_id === undefined) {
    problems.push('git_github_app_id: needed when git_github_app_private_key is set (or git_github_app_client_id)');
  }
  try {
    const parsed = createPrivateKey(pemOf(key));
    if (parsed.asymmetricKeyType !== 'rsa') problems.push('git_github_app_private_key: not an RSA key');
  } catch {
    problems.push('git_github_app_private_key: not a PEM private key that can be read');
  }
  return problems;
}
