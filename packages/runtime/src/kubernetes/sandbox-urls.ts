const BASE = /^(?<host>[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)(:(?<port>[0-9]{1,5}))?$/;
const ID = '{runtime_id}';

export interface UrlSettings {
  runtime_base_url: string;
  runtime_url_separator: string;
  runtime_url_pattern?: string | undefined;
  runtime_disable_ssl: boolean;
}

/**
 * Where a sandbox is reached: `<scheme>://{runtime_id}<separator><base>`, its Ingress host being that without the
 * port. The three settings that must agree (OpenHands' RUNTIME_URL_PATTERN, RUNTIME_BASE_URL,
 * RUNTIME_URL_SEPARATOR) are checked together at open: a mismatch is a startup error naming them, not sandboxes
 * whose URLs never answer.
 */
export class SandboxUrls {
  readonly scheme: 'http' | 'https';
  private readonly suffix: string;
  private readonly portSuffix: string;

  constructor(settings: UrlSettings) {
    const base = BASE.exec(settings.runtime_base_url);
    if (!base?.groups?.host) {
      throw new Error(
        `RUNTIME_BASE_URL ${JSON.stringify(settings.runtime_base_url)} must be a lowercase host name with an optional port (runtime.example.com), without a scheme or path`,
      );
    }
    this.scheme = settings.runtime_disable_ssl ? 'http' : 'https';
    this.suffix = `${settings.runtime_url_separator}${base.groups.host}`;
    this.portSuffix = base.groups.port ? `:${base.groups.port}` : '';
    const pattern = settings.runtime_url_pattern;
    if (pattern === undefined) return;
    const expected = `${this.scheme}://${ID}${this.suffix}${this.portSuffix}`;
    if (pattern.replace(/\/+$/, '') !== expected) {
      const ssl = `RUNTIME_DISABLE_SSL=${settings.runtime_disable_ssl}`;
      throw new Error(
        `RUNTIME_URL_PATTERN ${pattern} does not match RUNTIME_BASE_URL ${settings.runtime_base_url} with RUNTIME_URL_SEPARATOR ${JSON.stringify(settings.runtime_url_separator)} and ${ssl}: sandboxes would be at ${expected}`,
      );
    }
  }

  /** The Ingress host of a sandbox. */
  hostOf(id: string): string {
    return `${id}${this.suffix}`;
  }

  /** Its agent server's base URL. */
  urlOf(id: string): string {
    return `${this.scheme}://${this.hostOf(id)}${this.portSuffix}`;
  }
}
