/**
 * The names of the properties that carry a default in the protocol's request shapes (and the shapes they
 * reference): the server fills them in, so a request may leave them out. The protocol's static types are the
 * parsed shapes, where they are always present; `test/client/contract.test.ts` checks this list against the schemas.
 */
export const DEFAULTED_REQUEST_PROPERTIES = [
  'auto_load',
  'autotitle',
  'cache_prompt',
  'caching_prompt',
  'confirm_unknown',
  'confirmation_policy',
  'disabled_skills',
  'drop_params',
  'enable_encrypted_reasoning',
  'enabled',
  'evaluate',
  'exposed_urls',
  'header_name',
  'include_default_tools',
  'keep_first',
  'kind',
  'load_builtin',
  'load_builtin_skills',
  'load_org',
  'load_project',
  'load_project_skills',
  'load_public',
  'load_user',
  'log_completions',
  'matcher',
  'max_iterations',
  'max_message_chars',
  'max_size',
  'mcp_config',
  'modify_params',
  'native_tool_calling',
  'num_retries',
  'params',
  'registered_marketplaces',
  'reset_metrics',
  'retry_max_wait',
  'retry_min_wait',
  'retry_multiplier',
  'role',
  'run',
  'scope',
  'secrets',
  'skill_repositories',
  'stream',
  'stuck_detection',
  'system_prompt_kwargs',
  'tags',
  'threshold',
  'timeout',
  'tool_concurrency_limit',
  'tools',
  'type',
  'usage_id',
] as const;

type Defaulted = (typeof DEFAULTED_REQUEST_PROPERTIES)[number];

/**
 * A request body as it may be sent: the protocol's (parsed) type `T` with every defaulted property optional,
 * at every depth.
 */
export type WireInput<T> = T extends readonly (infer E)[]
  ? WireInput<E>[]
  : T extends object
    ? { [K in keyof T as K extends Defaulted ? never : K]: WireInput<T[K]> } & {
        [K in keyof T as K extends Defaulted ? K : never]?: WireInput<T[K]>;
      }
    : T;

/** `Api` with each request body as it may be sent (`WireInput` of the document's shape). */
export type WireApi<Api> = {
  [P in keyof Api]: {
    [M in keyof Api[P]]: { [K in keyof Api[P][M]]: K extends 'body' ? WireInput<Api[P][M][K]> : Api[P][M][K] };
  };
};
