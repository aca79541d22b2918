/** What the server says it is (`GET /server_info`, the OpenAPI document). */
export const SERVER_TITLE = 'Bosun Agent Server';
export const SERVER_VERSION = '0.1.0';
