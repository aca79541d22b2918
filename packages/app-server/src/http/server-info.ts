/** What the server says it is (`/`, `/server_info`, the OpenAPI document). */
export const SERVER_TITLE = 'Bosun App Server';
export const SERVER_VERSION = '0.1.0';
/** Where the home page links for the README: the server serves the one it was installed with. */
export const README_PATH = '/README.md';
