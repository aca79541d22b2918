import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The page as markdown, made inside the page (the DOM is there, and the work stays off the server's event
 * loop): reader mode (@mozilla/readability) for article-like pages, else every visible element of the body;
 * then turndown with its GitHub-flavoured plugin (tables, strikethrough, task lists). The libraries are loaded
 * into a document once, under `READER_KEY`, from the same packages Node resolves.
 */
export const READER_KEY = '__bosunReader';

let loader: string | undefined;

/** Source text that defines the reader's libraries in the page (a no-op when they are there). */
export function readerLoaderScript(): string {
  if (loader) return loader;
  const require = createRequire(import.meta.url);
  const source = (specifier: string) => readFileSync(require.resolve(specifier), 'utf8');
  const asModule = (name: string, specifier: string) =>
    `libs.${name} = { exports: {} };\n(function (module, exports) {\n${source(specifier)}\n})(libs.${name}, libs.${name}.exports);`;
  loader = `(() => {
  if (Object.prototype.hasOwnProperty.call(window, ${JSON.stringify(READER_KEY)})) return;
  const libs = {};
  ${asModule('turndown', 'turndown/lib/turndown.browser.cjs.js')}
  ${asModule('gfm', 'turndown-plugin-gfm/lib/turndown-plugin-gfm.browser.cjs.js')}
  ${asModule('readability', '@mozilla/readability/Readability.js')}
  ${asModule('readerable', '@mozilla/readability/Readability-readerable.js')}
  Object.defineProperty(window, ${JSON.stringify(READER_KEY)}, {
    value: {
      TurndownService: libs.turndown.exports,
      gfm: libs.gfm.exports.gfm,
      Readability: libs.readability.exports,
      isProbablyReaderable: libs.readerable.exports,
    },
    configurable: true,
    enumerable: false,
  });
})()`;
  return loader;
}

/**
 * Argument: `{extractLinks, start, max}`. Returns `{total, text, reader}`: the slice of the markdown from `start`
 * (at most `max` characters), its total length, and whether reader mode picked the main content.
 */
export const READ_PAGE_SCRIPT = `(options) => {
  const lib = window[${JSON.stringify(READER_KEY)}];
  const visible = (el) => {
    if (typeof el.checkVisibility !== 'function' || el.checkVisibility({ checkVisibilityCSS: true })) return true;
    return getComputedStyle(el).display === 'contents';
  };
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'CANVAS', 'IFRAME', 'OBJECT', 'HEAD']);
  // A copy of the live tree without what is not displayed (the copy has no styles left to tell).
  const copyVisible = (node) => {
    if (node.nodeType === Node.TEXT_NODE) return node.cloneNode(false);
    if (node.nodeType !== Node.ELEMENT_NODE) return null;
    if (SKIP.has(node.tagName.toUpperCase()) || !visible(node)) return null;
    const copy = node.cloneNode(false);
    const children = node.shadowRoot ? [...node.shadowRoot.childNodes, ...node.childNodes] : node.childNodes;
    for (const child of children) {
      const childCopy = copyVisible(child);
      if (childCopy) copy.appendChild(childCopy);
    }
    return copy;
  };
  let source = null;
  let reader = false;
  try {
    if (document.body && lib.isProbablyReaderable(document)) {
      const article = new lib.Readability(document.cloneNode(true)).parse();
      if (article && article.content && (article.textContent || '').trim().length >= 200) {
        source = article.content;
        reader = true;
      }
    }
  } catch (error) {
    source = null;
  }
  if (!source) source = copyVisible(document.body || document.documentElement) || '';

  const service = new lib.TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
  });
  service.use(lib.gfm);
  service.remove(['script', 'style', 'noscript', 'template', 'iframe', 'object', 'canvas', 'svg', 'select']);
  const absolute = (value) => {
    try { return new URL(value, document.baseURI).href; } catch (error) { return ''; }
  };
  service.addRule('links', {
    filter: (node) => node.nodeName === 'A',
    replacement: (content, node) => {
      const text = content.replace(/\\s*\\n\\s*/g, ' ').trim();
      const href = absolute(node.getAttribute('href') || '');
      if (!options.extractLinks || !href || /^javascript:/i.test(href)) return text;
      return '[' + (text || href) + '](' + href + ')';
    },
  });
  service.addRule('images', {
    filter: 'img',
    replacement: (content, node) => {
      const alt = (node.getAttribute('alt') || '').replace(/\\s+/g, ' ').trim();
      const src = absolute(node.getAttribute('src') || '');
      if (options.extractLinks && src && !src.startsWith('data:')) return '![' + alt + '](' + src + ')';
      return alt ? '[image: ' + alt + ']' : '';
    },
  });
  const markdown = service.turndown(source).replace(/\\n{3,}/g, '\\n\\n').trim();
  return { total: markdown.length, text: markdown.slice(options.start, options.start + options.max), reader };
}`;
