import { type Static, Type } from '@sinclair/typebox';

/**
 * The runtime API's wire shapes (OpenHands' runtime API client contract, plus Bosun's `network`). Inline schemas:
 * they are only this service's, and no other document refers to them.
 */
const strict = { additionalProperties: false } as const;

const AllowedHostWire = Type.Object(
  { host: Type.String({ minLength: 1, maxLength: 253 }), port: Type.Integer({ minimum: 1, maximum: 65535 }) },
  strict,
);

export const NetworkWire = Type.Union([
  Type.Object({ mode: Type.Literal('none') }, strict),
  Type.Object({ mode: Type.Literal('open') }, strict),
  Type.Object({ mode: Type.Literal('allow'), hosts: Type.Array(AllowedHostWire, { maxItems: 64 }) }, strict),
]);

const EnvironmentWire = Type.Record(Type.String(), Type.String({ maxLength: 65536 }), { maxProperties: 512 });

export const StartBody = Type.Object(
  {
    session_id: Type.String({ minLength: 1, maxLength: 128 }),
    image: Type.Optional(Type.String({ maxLength: 1024 })),
    command: Type.Optional(
      Type.Union([
        Type.String({ minLength: 1, maxLength: 8192 }),
        Type.Array(Type.String({ maxLength: 8192 }), { minItems: 1, maxItems: 256 }),
        Type.Null(),
      ]),
    ),
    working_dir: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
    environment: Type.Optional(EnvironmentWire),
    resource_factor: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(4), Type.Literal(8)])),
    run_as_user: Type.Optional(Type.Integer({ minimum: 0, maximum: 4294967294 })),
    run_as_group: Type.Optional(Type.Integer({ minimum: 0, maximum: 4294967294 })),
    // Sent by OpenHands' clients; a local sandbox has no volume group, runtime class or image to pull.
    fs_group: Type.Optional(Type.Integer({ minimum: 0, maximum: 4294967294 })),
    runtime_class: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()])),
    image_pull_policy: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()])),
    network: Type.Optional(NetworkWire),
  },
  strict,
);
export type StartBody = Static<typeof StartBody>;

export const RuntimeIdBody = Type.Object({ runtime_id: Type.String({ minLength: 1, maxLength: 128 }) }, strict);
export type RuntimeIdBody = Static<typeof RuntimeIdBody>;

/**
 * `/resume`: OpenHands' has only `runtime_id`; Bosun's `environment` and `network` (both optional) replace the
 * sandbox's from this resume on, as a start gives them.
 */
export const ResumeBody = Type.Object(
  {
    runtime_id: Type.String({ minLength: 1, maxLength: 128 }),
    environment: Type.Optional(EnvironmentWire),
    network: Type.Optional(NetworkWire),
  },
  strict,
);
export type ResumeBody = Static<typeof ResumeBody>;

export const SessionParams = Type.Object({ session_id: Type.String({ minLength: 1, maxLength: 128 }) }, strict);
export const RuntimeParams = Type.Object({ runtime_id: Type.String({ minLength: 1, maxLength: 128 }) }, strict);
export const BatchQuery = Type.Object(
  { ids: Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { minItems: 1, maxItems: 100 }) },
  strict,
);

/** OpenHands' runtime statuses, which its app maps to SandboxStatus (`stopped` → MISSING). */
export const RUNTIME_STATUSES = ['starting', 'running', 'paused', 'error', 'stopped'] as const;
export type RuntimeStatusWire = (typeof RUNTIME_STATUSES)[number];

export interface RuntimeInfoWire {
  runtime_id: string;
  session_id: string;
  url: string | null;
  session_api_key: string | null;
  status: RuntimeStatusWire;
  status_detail: string | null;
  /** Bosun's: what is enforced on the sandbox, a sentence each. */
  isolation: string[];
  created_at: string;
}
