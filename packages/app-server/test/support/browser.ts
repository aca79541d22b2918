/** An answer a browser got: its status, where it redirects, its JSON body (if any). */
export interface Visit {
  url: URL;
  status: number;
  location?: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read wire JSON loosely and assert on it.
  body: any;
  headers: Headers;
}

/**
 * A browser for tests over real HTTP: one cookie jar per host (names and values; `Max-Age=0` deletes), redirects
 * followed one by one so a test can stop at or rewrite any of them.
 */
export class Browser {
  private readonly jars = new Map<string, Map<string, string>>();

  /** The value of cookie `name` for `host` (`127.0.0.1:port`). */
  cookie(host: string, name: string): string | undefined {
    return this.jars.get(host)?.get(name);
  }

  setCookie(host: string, name: string, value: string | undefined): void {
    const jar = this.jars.get(host) ?? new Map<string, string>();
    this.jars.set(host, jar);
    if (value === undefined) jar.delete(name);
    else jar.set(name, value);
  }

  /** One request with this browser's cookies, not following a redirect. */
  async visit(url: string | URL, init: RequestInit = {}): Promise<Visit> {
    const target = new URL(url);
    const jar = this.jars.get(target.host);
    const cookie = jar && [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(target, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) },
    });
    for (const line of response.headers.getSetCookie()) this.keep(target.host, line);
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    const location = response.headers.get('location');
    return {
      url: target,
      status: response.status,
      headers: response.headers,
      body,
      ...(location ? { location: new URL(location, target).href } : {}),
    };
  }

  /**
   * Visits `url` and follows its redirects while `follow` lets it (default: all), each target first passed through
   * `rewrite`; answers the last visit (the one not followed).
   */
  async navigate(
    url: string,
    options: { follow?: (next: URL) => boolean; rewrite?: (next: URL) => URL } = {},
  ): Promise<Visit> {
    let visit = await this.visit(url);
    for (let hops = 0; visit.location && hops < 20; hops++) {
      const next = (options.rewrite ?? ((same) => same))(new URL(visit.location));
      if (options.follow && !options.follow(next)) return visit;
      visit = await this.visit(next);
    }
    return visit;
  }

  private keep(host: string, line: string): void {
    const [pair = '', ...attributes] = line.split(';');
    const separator = pair.indexOf('=');
    const name = pair.slice(0, separator).trim();
    const value = pair.slice(separator + 1).trim();
    const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute)) || value === '';
    const alreadyExpired = attributes.some(
      (attribute) => /^\s*expires=/i.test(attribute) && Date.parse(attribute.split('=')[1] ?? '') < Date.now(),
    );
    this.setCookie(host, name, expired || alreadyExpired ? undefined : value);
  }
}
