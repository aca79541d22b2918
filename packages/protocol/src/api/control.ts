import { type Static, Type } from '@sinclair/typebox';
import { kindShape, nullable, ref, strictObject, stringEnum, taggedUnion, withDefault } from '../schema/builders.ts';

/**
 * Control over the agent: when its actions wait for the user (confirmation policy), who rates their risk
 * (security analyzer), and the request bodies of the routes that change them.
 */

const RiskThreshold = stringEnum(['LOW', 'MEDIUM', 'HIGH'], { description: 'Lowest risk that needs confirmation.' });

export const NeverConfirm = kindShape('NeverConfirm', 'Actions never wait for the user.', {});
export const AlwaysConfirm = kindShape(
  'AlwaysConfirm',
  'Every response with actions waits for the user (a lone `finish` or `think` call excepted).',
  {},
);
export const ConfirmRisky = kindShape('ConfirmRisky', 'Actions wait when their security risk reaches `threshold`.', {
  threshold: withDefault(RiskThreshold, 'HIGH'),
  confirm_unknown: withDefault(Type.Boolean({ description: 'Whether an action of UNKNOWN risk waits too.' }), true),
});

export const ConfirmationPolicy = taggedUnion(
  'ConfirmationPolicy',
  'When actions wait for the user: never, always, or from a risk threshold on.',
  'kind',
  [NeverConfirm, AlwaysConfirm, ConfirmRisky],
);
export type ConfirmationPolicy = Static<typeof ConfirmationPolicy>;

export const LLMSecurityAnalyzer = kindShape(
  'LLMSecurityAnalyzer',
  'Rates each action with the `security_risk` the LLM gave in its own tool call.',
  {},
);
export const RuleBasedSecurityAnalyzer = kindShape(
  'RuleBasedSecurityAnalyzer',
  'Rates terminal commands and file operations by rules (destructive commands and writes outside the ' +
    'workspace are HIGH); when the LLM also gave a `security_risk`, the higher of the two counts.',
  {},
);

export const SecurityAnalyzer = taggedUnion(
  'SecurityAnalyzer',
  'Rates the security risk of the actions of the agent.',
  'kind',
  [LLMSecurityAnalyzer, RuleBasedSecurityAnalyzer],
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
  'Replace the confirmation policy (and, when given, the confirmation deadline).',
  {
    policy: ref(ConfirmationPolicy),
    confirmation_timeout_seconds: Type.Optional(ConfirmationTimeoutSeconds),
    on_confirmation_timeout: Type.Optional(ConfirmationTimeoutAction),
  },
);
export type SetConfirmationPolicyRequest = Static<typeof SetConfirmationPolicyRequest>;

export const SetSecurityAnalyzerRequest = strictObject('SetSecurityAnalyzerRequest', 'Replace the security analyzer.', {
  security_analyzer: nullable(ref(SecurityAnalyzer), { description: 'The analyzer; null removes it.' }),
});
export type SetSecurityAnalyzerRequest = Static<typeof SetSecurityAnalyzerRequest>;

export const ConfirmationResponseRequest = strictObject(
  'ConfirmationResponseRequest',
  'The answer to actions waiting for confirmation.',
  {
    accept: Type.Boolean({ description: 'Run the waiting actions (true) or reject them (false).' }),
    reason: Type.Optional(
      Type.String({ minLength: 1, maxLength: 4000, description: 'Why they were rejected (shown to the agent).' }),
    ),
  },
);
export type ConfirmationResponseRequest = Static<typeof ConfirmationResponseRequest>;
