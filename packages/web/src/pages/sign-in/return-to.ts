/**
 * Where a person wanted to go before signing in. The printed one-time link always lands on `/` (possibly in another
 * tab), so the wish is kept in localStorage for an hour and taken once after sign-in.
 */
const KEY = 'bosun.returnTo';
const TTL_MS = 60 * 60 * 1000;

/** Only a path of this origin (never `//host` or a scheme): a return address cannot send anyone elsewhere. */
export function safePath(path: string | null | undefined): string | undefined {
  if (!path || !path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return undefined;
  return path;
}

export function rememberReturnTo(path: string): void {
  const safe = safePath(path);
  if (safe && safe !== '/' && !safe.startsWith('/sign-in'))
    localStorage.setItem(KEY, JSON.stringify({ path: safe, at: Date.now() }));
}

/** The remembered path (once: it is forgotten when taken), if it is recent. */
export function takeReturnTo(): string | undefined {
  const raw = localStorage.getItem(KEY);
  if (!raw) return undefined;
  localStorage.removeItem(KEY);
  try {
    const { path, at } = JSON.parse(raw) as { path?: string; at?: number };
    return typeof at === 'number' && Date.now() - at < TTL_MS ? safePath(path) : undefined;
  } catch {
    return undefined;
  }
}
