/**
 * JavaScript run inside the page (kept as source text: the TypeScript toolchain would add helpers the page does
 * not have). It lists the visible interactive elements in document order, open shadow roots included, and keeps
 * them on the page's window under `ELEMENTS_KEY`, so a later click or typing finds the element by its index
 * for as long as the document lives. A new document (a navigation) has no list: it is made again on demand.
 */
export const ELEMENTS_KEY = '__bosunInteractiveElements';

/** Argument: `{maxText, maxAttribute, maxElements}`. Returns `{total, elements: {tag, attributes, text}[]}`. */
export const LIST_ELEMENTS_SCRIPT = `(options) => {
  const KEY = ${JSON.stringify(ELEMENTS_KEY)};
  const ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
    'tab', 'switch', 'option', 'combobox', 'textbox', 'searchbox', 'slider', 'spinbutton', 'treeitem']);
  const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg', 'math', 'iframe', 'object']);
  const CONTROLS = new Set(['input', 'select', 'textarea', 'button']);
  const ATTRIBUTES = ['type', 'name', 'role', 'aria-label', 'placeholder', 'title', 'alt', 'href', 'value'];
  const squash = (text, max) => {
    const flat = String(text || '').replace(/\\s+/g, ' ').trim();
    return flat.length > max ? flat.slice(0, max - 1) + '\\u2026' : flat;
  };
  const visible = (el) => {
    if (typeof el.checkVisibility === 'function' &&
        !el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return false;
    const rect = el.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0;
  };
  const pointer = (el) => el instanceof Element && getComputedStyle(el).cursor === 'pointer';
  const interactive = (el, tag) => {
    if (tag === 'a') return el.hasAttribute('href');
    if (tag === 'button' || tag === 'select' || tag === 'textarea' || tag === 'summary') return true;
    if (tag === 'input') return el.type !== 'hidden';
    if (tag === 'label') return !!el.control && !visible(el.control);
    if (el.isContentEditable) return !(el.parentElement && el.parentElement.isContentEditable);
    const role = el.getAttribute('role');
    if (role && ROLES.has(role)) return true;
    if (el.hasAttribute('onclick')) return true;
    const tabindex = el.getAttribute('tabindex');
    if (tabindex !== null && Number(tabindex) >= 0 && tag !== 'body' && tag !== 'html') return true;
    return pointer(el) && !pointer(el.parentElement || el.getRootNode().host);
  };
  const found = [];
  const walk = (parent, insideInteractive) => {
    for (const el of parent.children) {
      const tag = el.tagName.toLowerCase();
      if (SKIP.has(tag)) continue;
      let inside = insideInteractive;
      if ((!insideInteractive || CONTROLS.has(tag)) && interactive(el, tag) && visible(el)) {
        found.push(el);
        inside = true;
      }
      if (el.shadowRoot) walk(el.shadowRoot, inside);
      walk(el, inside);
    }
  };
  if (document.documentElement) walk(document.documentElement, false);
  Object.defineProperty(window, KEY, { value: found, configurable: true, enumerable: false, writable: true });

  const describe = (el) => {
    const tag = el.tagName.toLowerCase();
    const attributes = [];
    for (const name of ATTRIBUTES) {
      let value = el.getAttribute(name);
      if (name === 'value' && (tag === 'input' || tag === 'textarea')) {
        if (el.type === 'password') value = el.value ? '<hidden>' : null;
        else if (el.type === 'checkbox' || el.type === 'radio') value = el.getAttribute('value');
        else value = el.value;
      }
      if (name === 'type' && tag !== 'input' && tag !== 'button') continue;
      if (value === null || value === undefined || value === '') continue;
      attributes.push([name, squash(value, options.maxAttribute)]);
    }
    if (el.checked) attributes.push(['checked', '']);
    if (el.disabled) attributes.push(['disabled', '']);
    if (el.isContentEditable && !CONTROLS.has(tag)) attributes.push(['contenteditable', '']);
    let text = '';
    if (tag === 'select') {
      text = Array.from(el.options).map((o) => (o.selected ? '*' : '') + squash(o.label || o.text, 40)).join(' | ');
    } else if (tag !== 'input' && tag !== 'textarea') {
      text = el.innerText || el.textContent || '';
      if (!text.trim()) {
        const img = el.querySelector('img[alt]');
        text = el.getAttribute('aria-label') || el.getAttribute('title') || (img && img.getAttribute('alt')) || '';
      }
    }
    return { tag, attributes, text: squash(text, options.maxText) };
  };
  return { total: found.length, elements: found.slice(0, options.maxElements).map(describe) };
}`;

/**
 * Argument: an index. Returns the element at that index of the last list, or a string saying why there is none:
 * `unlisted` (this document was never listed), `range:<count>` or `detached` (the element left the page).
 */
export const ELEMENT_AT_SCRIPT = `(index) => {
  const list = window[${JSON.stringify(ELEMENTS_KEY)}];
  if (!list) return 'unlisted';
  const el = list[index];
  if (!el) return 'range:' + list.length;
  if (!el.isConnected) return 'detached';
  return el;
}`;
