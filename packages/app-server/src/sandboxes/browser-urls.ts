import { isLoopbackHost } from '../http/loopback-host.ts';

/** Where the app proxies a sandbox's agent server: `/sandboxes/{id}/agent/...` of its own origin. */
export const SANDBOX_PROXY_PREFIX = '/sandboxes';
export const SANDBOX_PROXY_SUFFIX = '/agent';

/** The `sandbox_urls` setting. */
export type SandboxUrlsSetting = 'auto' | 'direct' | 'proxied';

/** The path of sandbox `id`'s agent server on the app (no trailing slash). */
export function proxiedAgentPath(id: string): string {
  return `${SANDBOX_PROXY_PREFIX}/${encodeURIComponent(id)}${SANDBOX_PROXY_SUFFIX}`;
}

/**
 * Whether browsers are given the app's proxied URLs: `proxied` and `direct` say so; `auto` proxies unless the app
 * listens on loopback and `public_url` (when given) is a loopback URL too: only then is a browser that reaches the
 * app sure to reach a local sandbox's own address (on the same machine).
 */
export function proxiesSandboxUrls(setting: SandboxUrlsSetting, host: string, publicUrl: string | undefined): boolean {
  if (setting !== 'auto') return setting === 'proxied';
  if (!isLoopbackHost(host)) return true;
  return publicUrl !== undefined && !isLoopbackHost(new URL(publicUrl).hostname);
}
