import type { LookupSecretSource } from '@bosun/protocol';
import type { Repositories } from '../data/index.ts';
import { tokenVariable } from '../git/provider-urls.ts';
import type { ProviderTokenReader } from '../git/token-renewal.ts';

/** Where a user's secrets are read for their sandboxes: custom secrets, then provider tokens. */
export type SandboxSecretSources = {
  secrets: Pick<Repositories['secrets'], 'search' | 'value'>;
  /** The renewing read: a token that expired is renewed before it is answered. */
  providerTokens: ProviderTokenReader;
};

export interface SandboxSecretInfo {
  name: string;
  description: string | null;
}

/** How many custom secrets are read per page while they are all listed. */
const PAGE = 100;

/**
 * The secrets a user's sandbox may look up, by name: their custom secrets, then a `<PROVIDER>_TOKEN` for each Git
 * provider they connected (unless a custom secret has that name: custom secrets come first).
 */
export async function sandboxSecretNames(sources: SandboxSecretSources, userId: string): Promise<SandboxSecretInfo[]> {
  const listed: SandboxSecretInfo[] = [];
  let pageId: string | undefined;
  do {
    const page = await sources.secrets.search(userId, { limit: PAGE, ...(pageId ? { pageId } : {}) });
    listed.push(...page.items.map(({ name, description }) => ({ name, description })));
    pageId = page.next_page_id ?? undefined;
  } while (pageId);
  const names = new Set(listed.map((secret) => secret.name));
  for (const { provider } of await sources.providerTokens.list(userId)) {
    const name = tokenVariable(provider);
    if (!names.has(name)) listed.push({ name, description: `The ${provider} token of your Git provider connection` });
  }
  return listed;
}

/** The value of one of them as it is now (a token renewed since the start included), or undefined. */
export async function sandboxSecretValue(
  sources: SandboxSecretSources,
  userId: string,
  name: string,
): Promise<string | undefined> {
  const custom = await sources.secrets.value(userId, name);
  if (custom !== undefined) return custom;
  for (const { provider } of await sources.providerTokens.list(userId)) {
    if (tokenVariable(provider) === name) return (await sources.providerTokens.token(userId, provider))?.token;
  }
  return undefined;
}

/** The app route (under `base`, the app's URL as sandboxes reach it) that answers a sandbox one secret's value. */
export function sandboxSecretUrl(base: string, sandboxId: string, name: string): string {
  return `${base.replace(/\/+$/, '')}/api/v1/sandboxes/${encodeURIComponent(sandboxId)}/settings/secrets/${encodeURIComponent(name)}`;
}

/**
 * The LookupSecret by which a sandbox reads one of its owner's secrets from the app (`base`), authenticated by its
 * own session key: given at a start, and again with the new key when the sandbox runs again.
 */
export function sandboxLookupSecret(
  base: string,
  sandbox: { id: string; sessionApiKey: string },
  name: string,
  description: string | null | undefined,
): LookupSecretSource {
  return {
    kind: 'LookupSecret',
    url: sandboxSecretUrl(base, sandbox.id, name),
    headers: { 'X-Session-API-Key': sandbox.sessionApiKey },
    ...(description ? { description } : {}),
  };
}

/** The app's URL as sandboxes reach it (`publicUrl()`, as for their webhooks), or undefined while it has none. */
export function appUrlOf(publicUrl: (() => string) | undefined): string | undefined {
  try {
    return publicUrl?.();
  } catch {
    return undefined;
  }
}
