import { type Action, Action as ActionSchema, safeParse } from '@bosun/protocol';
import type { Tool } from '../tools/tool.ts';

const SECURITY_RISKS = ['UNKNOWN', 'LOW', 'MEDIUM', 'HIGH'];

/** The arguments the LLM sees for `tool`: the action's, plus `summary` and (unless read-only) `security_risk`. */
export function llmToolParameters(tool: Tool): Record<string, unknown> {
  const properties = (tool.parameters.properties ?? {}) as Record<string, unknown>;
  return {
    ...tool.parameters,
    properties: {
      summary: { type: 'string', description: 'What this call does, in about 10 words (shown to the user).' },
      ...(tool.readOnly
        ? {}
        : {
            security_risk: {
              type: 'string',
              enum: SECURITY_RISKS,
              description: 'Your estimate of the risk of this call: LOW, MEDIUM or HIGH (UNKNOWN if unsure).',
            },
          }),
      ...properties,
    },
  };
}

export type ParsedCall =
  | { ok: true; action: Action; summary: string | null; securityRisk: string | null }
  | { ok: false; error: string };

/** Turns the LLM's arguments for `tool` into its Action, or says precisely what is wrong with them. */
export function parseToolCall(tool: Tool, rawArguments: string): ParsedCall {
  let args: unknown;
  try {
    args = rawArguments.trim() === '' ? {} : JSON.parse(rawArguments);
  } catch (error) {
    return {
      ok: false,
      error: `Error validating tool '${tool.name}': the arguments are not valid JSON (${(error as Error).message}). Arguments received: ${rawArguments.slice(0, 500)}`,
    };
  }
  if (!args || typeof args !== 'object' || Array.isArray(args)) {
    return { ok: false, error: `Error validating tool '${tool.name}': the arguments must be a JSON object.` };
  }
  const { summary, security_risk: securityRisk, kind: _kind, ...fields } = args as Record<string, unknown>;
  const injected = { summary, security_risk: securityRisk };
  if (tool.actionFrom) {
    // Arguments the tool declares itself (an MCP tool may have its own `summary`) stay its arguments.
    const own = (tool.parameters.properties ?? {}) as Record<string, unknown>;
    const kept = Object.entries({ ...injected, kind: _kind }).filter(
      ([key, value]) => key in own && value !== undefined,
    );
    const built = tool.actionFrom({ ...Object.fromEntries(kept), ...fields });
    if (!built.ok) return built;
    return { ok: true, action: built.action, summary: stringOrNull(summary), securityRisk: riskOrNull(securityRisk) };
  }
  const result = safeParse(ActionSchema, { ...fields, kind: tool.actionKind });
  if (!result.ok) {
    const problems = result.errors.map((e) => `${e.loc.join('.') || '(arguments)'}: ${e.msg}`).join('; ');
    return {
      ok: false,
      error: `Error validating tool '${tool.name}': ${problems}. Parameters provided: ${JSON.stringify(Object.keys(fields))}`,
    };
  }
  return { ok: true, action: result.value, summary: stringOrNull(summary), securityRisk: riskOrNull(securityRisk) };
}

const stringOrNull = (value: unknown) => (typeof value === 'string' ? value : null);
const riskOrNull = (value: unknown) => (typeof value === 'string' && SECURITY_RISKS.includes(value) ? value : null);
