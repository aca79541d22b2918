/** Credentials never leave a fetch: every URL in a message loses its user information. */

const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi;

/** `text` with the credentials of any URL in it replaced: `https://user:secret@host` -> `https://***@host`. */
export function redactCredentials(text: string): string {
  return text.replace(URL_USERINFO, '$1***@');
}

/** A URL without its user information, and that user information (decoded), if it had any. */
export function splitCredentials(url: string): { url: string; username?: string; password?: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url };
  }
  if (!parsed.username && !parsed.password) return { url };
  const username = decodeURIComponent(parsed.username);
  const password = decodeURIComponent(parsed.password);
  parsed.username = '';
  parsed.password = '';
  return {
    url: parsed.toString(),
    ...(username ? { username } : {}),
    ...(password ? { password } : {}),
  };
}
