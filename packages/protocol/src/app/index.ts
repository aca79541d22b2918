export * from './api-keys.ts';
export * from './common.ts';
export * from './conversations.ts';
export * from './organizations.ts';
export * from './sandboxes.ts';
export * from './secrets.ts';
export * from './settings.ts';
export * from './users.ts';
