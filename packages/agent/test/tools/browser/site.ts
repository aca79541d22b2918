import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A small web site on 127.0.0.1 for the browser tests: forms, links, tabs, storage, slow and long pages. */
export interface TestSite {
  url: string;
  /** Form submissions received, in order. */
  submissions: Record<string, string>[];
  /** The path of every request, in order. */
  paths: string[];
  close(): Promise<void>;
}

const page = (title: string, body: string, head = '') =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;

/** A long article: numbered paragraphs, so a slice of it says where it is. */
export function longArticle(paragraphs: number): string {
  return Array.from(
    { length: paragraphs },
    (_, i) =>
      `<p>Paragraph ${i} of the long page. The quick brown fox jumps over the lazy dog, again and again, to make this paragraph long enough to count.</p>`,
  ).join('\n');
}

const ROUTES: Record<string, (request: IncomingMessage, body: string) => string> = {
  '/': () =>
    page(
      'Home',
      `<h1>Welcome home</h1>
      <nav><a href="/form">The form</a> <a href="/about">About us</a> <a href="/about" target="_blank">About (new tab)</a></nav>
      <p>Some text with a <a href="https://example.invalid/x">far link</a>.</p>
      <button disabled>Disabled button</button>
      <div style="display:none"><a href="/hidden">Hidden link</a><p>Invisible words</p></div>
      <span onclick="this.textContent = 'span clicked'" style="cursor:pointer">Clickable span</span>`,
    ),
  '/about': () => page('About', '<h1>About</h1><p>We make tests.</p><a href="/">Back home</a>'),
  '/form': () =>
    page(
      'The form',
      `<h1>Sign up</h1>
      <form method="post" action="/submit">
        <label>Name <input type="text" name="name" placeholder="Your name"></label>
        <label>Password <input type="password" name="password"></label>
        <select name="color"><option value="r">Red</option><option value="g">Green</option><option value="b">Blue</option></select>
        <label><input type="checkbox" name="news" value="yes"> Send me news</label>
        <textarea name="note"></textarea>
        <button type="submit">Sign up</button>
      </form>`,
    ),
  '/submit': (_request, body) => {
    const fields = Object.fromEntries(new URLSearchParams(body));
    return page(
      'Thanks',
      `<h1>Thanks, ${escapeHtml(fields.name ?? '')}!</h1><p>Color: ${escapeHtml(fields.color ?? '')}; news: ${escapeHtml(fields.news ?? 'no')}; note: ${escapeHtml(fields.note ?? '')}</p>`,
    );
  },
  '/long': () => page('Long page', `<h1>The long page</h1>${longArticle(600)}`),
  '/article': () =>
    page(
      'An article',
      `<header><nav><a href="/">Home</a> | <a href="/about">About</a> | <a href="/form">Menu item three</a></nav></header>
      <aside class="sidebar"><h3>Sidebar</h3><p>Sidebar advertisement</p></aside>
      <article><h1>How browsers read pages</h1>${longArticle(12)}
      <table><thead><tr><th>Tool</th><th>Speed</th></tr></thead><tbody><tr><td>Chromium</td><td>fast</td></tr></tbody></table>
      <p>See <a href="/about">the about page</a>.</p></article>
      <footer>Footer text</footer>`,
    ),
  '/tall': () =>
    page(
      'Tall',
      `<h1>Top</h1><div style="height:5000px;background:linear-gradient(#fff,#00f)"></div><a href="/">Bottom link</a>`,
    ),
  '/storage': () =>
    page(
      'Storage',
      '<p id="out">...</p><script>localStorage.setItem("theme", "dark"); document.getElementById("out").textContent = "stored";</script>',
    ),
  '/whoami': (request) => page('Who am I', `<p>Cookie: ${escapeHtml(request.headers.cookie ?? 'none')}</p>`),
  '/local': () =>
    page(
      'Local',
      '<p id="out"></p><script>document.getElementById("out").textContent = "theme=" + localStorage.getItem("theme");</script>',
    ),
  '/vanish': () =>
    page(
      'Vanish',
      `<button onclick="document.getElementById('gone').remove()">Remove the link</button> <a id="gone" href="/about">Soon gone</a>`,
    ),
  '/confirm': () =>
    page(
      'Confirm',
      `<button onclick="if (confirm('Delete   everything?')) document.getElementById('out').textContent = 'confirmed'">Delete</button><p id="out">waiting</p>`,
    ),
  // Says so (a beacon to /stuck) the moment before its script stops answering.
  '/hang': () =>
    page(
      'Hang',
      `<p>Loaded, then stuck.</p><script>setTimeout(() => { navigator.sendBeacon('/stuck'); for (;;) {} }, 100)</script>`,
    ),
  '/popup': () => page('Popup', `<button onclick="window.open('/about')">Open a window</button>`),
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

export async function startTestSite(): Promise<TestSite> {
  const submissions: Record<string, string>[] = [];
  const paths: string[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    paths.push(path);
    if (path === '/never') {
      // Headers never come: the navigation can only time out.
      hanging.add(response);
      return;
    }
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const route = ROUTES[path];
      if (path === '/login') {
        response.setHeader('set-cookie', 'session=abc123; Path=/; HttpOnly');
      }
      if (path === '/submit') submissions.push(Object.fromEntries(new URLSearchParams(body)));
      response.statusCode = route || path === '/login' ? 200 : 404;
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(
        route
          ? route(request, body)
          : path === '/login'
            ? page('Logged in', '<p>ok</p>')
            : page('Not found', '<h1>Not found</h1>'),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    submissions,
    paths,
    close: () =>
      new Promise((resolve) => {
        for (const response of hanging) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
