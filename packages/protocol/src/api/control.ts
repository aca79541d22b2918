import { type Static, Type } from '@sinclair/typebox';
import { kindShape, nullable, ref, strictObject, stringEnum, taggedUnion, withDefault } from '../schema/builders.ts';

/**
 * Control over the agent: when its actions wait for the user (confirmation policy), who rates their risk
 * (security analyzer), and the request bodies of the routes that change them.
 */

const RiskThreshold = stringEnum(['LOW', 'MEDIUM', 'HIGH'], { description: 'Lowest risk that needs confirmation.' });

export const NeverConfirm = kindShape('NeverConfirm', {}, { description: 'Actions never wait for the user.' });
export const AlwaysConfirm = kindShape(
  'AlwaysConfirm',
  {},
  { description: 'Every response with actions waits for the user (a lone `finish` or `think` call excepted).' },
);
export const ConfirmRisky = kindShape(
  'ConfirmRisky',
  {
    threshold: withDefault(RiskThreshold, 'HIGH'),
    confirm_unknown: withDefault(Type.Boolean({ description: 'Whether an action of UNKNOWN risk waits too.' }), true),
  },
  { description: 'Actions wait when their security risk reaches `threshold`.' },
);

export const ConfirmationPolicy = taggedUnion(
  'ConfirmationPolicy',
  'kind',
  [NeverConfirm, AlwaysConfirm, ConfirmRisky],
  {
    description: 'When actions wait for the user: never, always, or from a risk threshold on.',
  },
);
export type ConfirmationPolicy = Static<typeof ConfirmationPolicy>;

export const LLMSecurityAnalyzer = kindShape(
  'LLMSecurityAnalyzer',
  {},
  { description: 'Rates each action with the `security_risk` the LLM gave in its own tool call.' },
);
export const RuleBasedSecurityAnalyzer = kindShape(
  'RuleBasedSecurityAnalyzer',
  {},
  {
    description:
      'Rates terminal commands and file operations by rules (destructive commands and writes outside the ' +
      'workspace are HIGH); when the LLM also gave a `security_risk`, the higher of the two counts.',
  },
);

export const SecurityAnalyzer = taggedUnion(
  'SecurityAnalyzer',
  'kind',
  [LLMSecurityAnalyzer, RuleBasedSecurityAnalyzer],
  {
    description: 'Rates the security risk of the actions of the agent.',
  },
);
export type SecurityAnalyzer = Static<typeof SecurityAnalyzer>;

export const ConfirmationTimeoutAction = stringEnum(['deny', 'pause'], {
  description:
    'What happens when nobody answers in time: `deny` rejects the waiting actions and lets the agent go on, ' +
    '`pause` pauses the conversation.',
});
export type ConfirmationTimeoutAction = Static<typeof ConfirmationTimeoutAction>;

/** Seconds the waiting actions wait for an answer; none (or null) waits forever. */
export const ConfirmationTimeoutSeconds = nullable(
  Type.Number({ exclusiveMinimum: 0, maximum: 30 * 24 * 3600, description: 'Seconds to wait for an answer.' }),
);

export const SetConfirmationPolicyRequest = strictObject(
  'SetConfirmationPolicyRequest',
  {
    policy: ref(ConfirmationPolicy),
    confirmation_timeout_seconds: Type.Optional(ConfirmationTimeoutSeconds),
    on_confirmation_timeout: Type.Optional(ConfirmationTimeoutAction),
  },
  { description: 'Replace the confirmation policy (and, when given, the confirmation deadline).' },
);
export type SetConfirmationPolicyRequest = Static<typeof SetConfirmationPolicyRequest>;

export const SetSecurityAnalyzerRequest = strictObject(
  'SetSecurityAnalyzerRequest',
  { security_analyzer: nullable(ref(SecurityAnalyzer), { description: 'The analyzer; null removes it.' }) },
  { description: 'Replace the security analyzer.' },
);
export type SetSecurityAnalyzerRequest = Static<typeof SetSecurityAnalyzerRequest>;

export const ConfirmationResponseRequest = strictObject(
  'ConfirmationResponseRequest',
  {
    accept: Type.Boolean({ description: 'Run the waiting actions (true) or reject them (false).' }),
    reason: Type.Optional(
      Type.String({ minLength: 1, maxLength: 4000, description: 'Why they were rejected (shown to the agent).' }),
    ),
  },
  { description: 'The answer to actions waiting for confirmation.' },
);
export type ConfirmationResponseRequest = Static<typeof ConfirmationResponseRequest>;
