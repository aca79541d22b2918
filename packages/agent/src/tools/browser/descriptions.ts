/** What the LLM reads about each browser tool. */

const INDEXES =
  'Elements are addressed by the number in brackets that browser_get_state lists (e.g. `[3]<button>Send</button>` ' +
  'is index 3). The numbers belong to the page as it was listed: after the page changes, list it again.';

export const BROWSER_DESCRIPTIONS = {
  browser_navigate:
    'Open a URL in the browser and wait until its document has loaded. Use it to visit web pages, local servers ' +
    '(http://localhost:3000) or files (file:///path). Set `new_tab` to open it in a new tab and keep the current ' +
    'one. The answer gives the final URL (after redirects), the HTTP status when it is an error, and the title. ' +
    'Then call browser_get_state to see what you can click or fill in, or browser_get_content to read the page.',
  browser_click: `Click an interactive element of the current page (a link, a button, a checkbox...). ${INDEXES} When the click loads another page, the answer waits for it and says where it went; when it opens a new tab, that tab becomes the current one. Set \`new_tab\` to open a link in a new tab.`,
  browser_type: `Type text into an input, a text area or an editable element of the current page; the text replaces what the field held. For a drop-down list (<select>), give the option as it is shown to choose it. To submit a form, click its submit button afterwards. ${INDEXES}`,
  browser_get_state:
    "List the current page's interactive elements (links, buttons, inputs, drop-down lists...) with the index " +
    'browser_click and browser_type take, in document order, with the URL, the title and how far the page is ' +
    'scrolled. Set `include_screenshot` to also get a PNG screenshot of the visible part of the page (use it ' +
    'when the layout or an image matters; it is large).',
  browser_get_content:
    'Read the current page as markdown text (headings, paragraphs, lists, tables). Article-like pages are read in ' +
    'reader mode (the main content, without menus and sidebars). Set `extract_links` to keep the URLs of links ' +
    'and images. Long pages come in parts of 30,000 characters: the answer says which `start_from_char` reads ' +
    'the next part.',
  browser_scroll:
    'Scroll the current page up or down by most of a window height (or the main scrolling panel of an app whose ' +
    'page does not scroll). The answer says how far the page is scrolled and how much is left below.',
  browser_go_back: "Go back to the previous page in the current tab's history, like the browser's Back button.",
  browser_list_tabs:
    'List the open tabs: each with its 4-character id (for browser_switch_tab and browser_close_tab), its title ' +
    'and URL; the current tab is marked.',
  browser_switch_tab:
    'Make another open tab the current one (the one the other browser tools act on), by its 4-character id from ' +
    'browser_list_tabs.',
  browser_close_tab:
    'Close an open tab by its 4-character id from browser_list_tabs. Closing the current tab makes the most ' +
    'recently opened remaining tab current.',
  browser_get_storage:
    "Read the browser's cookies and the local storage of every origin, as a storage state " +
    '(`{"cookies": [...], "origins": [{"origin", "localStorage": [{"name", "value"}]}]}`). Save it to restore a ' +
    'logged-in session later with browser_set_storage.',
  browser_set_storage:
    "Replace the browser's cookies and local storage with a storage state, as browser_get_storage returns it " +
    '(`{"cookies": [{"name", "value", "domain", "path", "expires", "httpOnly", "secure", "sameSite"}], ' +
    '"origins": [{"origin", "localStorage": [{"name", "value"}]}]}`). What was stored before is cleared. Use it ' +
    'to log in with a saved session.',
  browser_start_recording:
    'Start recording what the browser shows (the current tab, following tab switches) until ' +
    'browser_stop_recording. Use it when the user wants to see how a task was done in the browser.',
  browser_stop_recording:
    'Stop the recording started with browser_start_recording and save it: an HTML file that plays the recording ' +
    'in any web browser, which the user can download. The answer gives its path.',
} as const;

export type BrowserToolName = keyof typeof BROWSER_DESCRIPTIONS;
