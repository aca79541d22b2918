/** An origin no request comes from: a path resolved against it must stay on it. */
const PROBE = 'http://return-to.invalid';

/**
 * `value` when it is a path of this server, else `/`: what a sign-in may redirect to without being an open redirect.
 * Refused: absolute URLs (`https://evil`), scheme-relative ones (`//evil`), backslashes (browsers read `/\evil` as
 * `//evil`) and control characters (the URL parser drops tabs and newlines, turning `/\t/evil` into `//evil`).
 */
export function sameOriginPath(value: string | undefined): string {
  if (!value?.startsWith('/') || value.startsWith('//')) return '/';
  if ([...value].some((char) => char === '\\' || char <= ' ' || char === '\u007f')) return '/';
  let url: URL;
  try {
    url = new URL(value, PROBE);
  } catch {
    return '/';
  }
  return url.origin === PROBE ? `${url.pathname}${url.search}${url.hash}` : '/';
}
