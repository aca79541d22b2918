import { type Static, Type } from '@sinclair/typebox';
import { ExposedUrl } from '../api/skills.ts';
import { namedEnum, nullable, ref, strictObject } from '../schema/builders.ts';
import { pageOf, timestamp } from './common.ts';

/** Sandboxes (each an agent server of its own) and the specs they start from, as OpenHands' V1 API has them. */

export const SANDBOX_STATUSES = ['STARTING', 'RUNNING', 'PAUSED', 'ERROR', 'MISSING'] as const;

export const SandboxStatus = namedEnum(
  'SandboxStatus',
  'STARTING: its agent server is starting; RUNNING: it answers; PAUSED: stopped, its workspace kept; ERROR: it ' +
    'stopped by itself (`status_detail` says why); MISSING: its workspace is gone.',
  SANDBOX_STATUSES,
);
export type SandboxStatus = Static<typeof SandboxStatus>;

export const SandboxInfo = strictObject(
  'SandboxInfo',
  'A sandbox: an agent server with its own workspace and session key.',
  {
    id: Type.String(),
    created_by_user_id: nullable(Type.String()),
    sandbox_spec_id: Type.String(),
    status: ref(SandboxStatus),
    status_detail: nullable(Type.String({ description: 'Why it is in its status (an error’s reason).' })),
    session_api_key: nullable(
      Type.String({ description: 'The key its agent server accepts (`X-Session-API-Key`), while it runs.' }),
    ),
    exposed_urls: nullable(Type.Array(ref(ExposedUrl), { description: 'Its services, while it runs.' })),
    created_at: timestamp(),
  },
);
export type SandboxInfo = Static<typeof SandboxInfo>;

export const SandboxPage = pageOf('SandboxPage', 'A page of the caller’s sandboxes, newest first.', SandboxInfo);
export type SandboxPage = Static<typeof SandboxPage>;

export const SandboxStartRequest = strictObject(
  'SandboxStartRequest',
  'The spec to start from (default: the default spec); also accepted as a query parameter.',
  { sandbox_spec_id: Type.Optional(nullable(Type.String({ minLength: 1, maxLength: 255 }))) },
);
export type SandboxStartRequest = Static<typeof SandboxStartRequest>;

export const SuccessResponse = strictObject('SuccessResponse', 'It was done.', { success: Type.Boolean() });
export type SuccessResponse = Static<typeof SuccessResponse>;

export const SandboxSpecInfo = strictObject('SandboxSpecInfo', 'What a sandbox starts from.', {
  id: Type.String(),
  command: nullable(Type.Array(Type.String(), { description: 'What starts the agent server.' })),
  created_at: timestamp(),
  initial_env: Type.Record(Type.String(), Type.String(), { description: 'Environment given to the sandbox.' }),
  working_dir: Type.String({ description: 'The workspace, inside the sandbox.' }),
});
export type SandboxSpecInfo = Static<typeof SandboxSpecInfo>;

export const SandboxSpecPage = pageOf('SandboxSpecPage', 'A page of sandbox specs.', SandboxSpecInfo);
export type SandboxSpecPage = Static<typeof SandboxSpecPage>;
