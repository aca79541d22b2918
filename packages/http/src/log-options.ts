/**
 * Query parameters whose values are never logged: anything named like a key, token, secret or password, and an
 * OAuth authorization `code` (the sign-in callback's, exchanged for tokens).
 */
const SECRET_NAME = /key|token|secret|passw(or)?d|pwd|auth|credential|signature|session|^code$/i;

/** `url` with the value of every query parameter that looks like a secret replaced by `<redacted>`. */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const query = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return equals !== -1 && SECRET_NAME.test(decodeBytes(name)) ? `${name}=<redacted>` : pair;
    });
  return `${url.slice(0, start)}?${query.join('&')}`;
}

/** Each `%XX` as its byte (never throws, unlike `decodeURIComponent`): enough to read an ASCII name. */
function decodeBytes(text: string): string {
  return text.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** Request headers that carry credentials. */
const CREDENTIAL_HEADERS = ['x-session-api-key', 'x-access-token', 'authorization', 'cookie'];

/** Structured (pino) logs that never contain a credential, whether it came in a header or in the URL. */
export function loggerOptions(level: string) {
  return {
    level,
    redact: CREDENTIAL_HEADERS.map((name) => `req.headers["${name}"]`),
    serializers: {
      req(request: { method: string; url: string; id: string }) {
        return { id: request.id, method: request.method, url: redactUrl(request.url) };
      },
    },
  };
}
