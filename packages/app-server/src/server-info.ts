/** What the server says it is (`/`, `/server_info`, the OpenAPI document). */
export const SERVER_TITLE = 'Bosun App Server';
export const SERVER_VERSION = '0.1.0';
/** Where the README is read (the home page links to it). */
export const README_URL = 'https://github.com/bosun-platform/bosun/blob/main/README.md';
