import type { ActionOf, ObservationOf, ToolDefinition } from '@bosun/protocol';
import { INVOKE_SKILL, type SkillSet, renderSkillContent } from '@bosun/sources';
import { textContent } from '../tools/observations.ts';
import type { Tool } from '../tools/tool.ts';

type MCPToolAction = ActionOf<'MCPToolAction'>;
type MCPToolObservation = ObservationOf<'MCPToolObservation'>;

const DESCRIPTION = `Load the full instructions of a skill listed in <available_skills>. Call it with the skill's name as soon as a task matches the skill's description, before you start the task, then follow the instructions it returns. Files the skill mentions are listed with their paths: read them only when you need them.`;

/**
 * The `invoke_skill` tool. The specification's Action union is closed (no InvokeSkillAction), so the tool uses
 * the generic shapes of "a tool with arbitrary data": its calls are `MCPToolAction {data: {name}}`, its results
 * `MCPToolObservation {tool_name: "invoke_skill"}` and it is listed as an `MCPToolDefinition`. It is offered
 * only when the agent has invocable skills.
 */
export function createInvokeSkillTool(skills: SkillSet): Tool<MCPToolAction, MCPToolObservation> {
  const names = skills.invocable().map((skill) => skill.name);
  const parameters = {
    type: 'object',
    properties: {
      name: { type: 'string', enum: names, description: 'The name of the skill, as in <available_skills>.' },
    },
    required: ['name'],
    additionalProperties: false,
  };
  const definition = {
    kind: 'MCPToolDefinition',
    title: INVOKE_SKILL,
    description: DESCRIPTION,
    action_type: 'MCPToolAction',
    observation_type: 'MCPToolObservation',
    annotations: {
      title: INVOKE_SKILL,
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    mcp_tool: { name: INVOKE_SKILL, description: DESCRIPTION, inputSchema: parameters },
  } as ToolDefinition;
  return {
    name: INVOKE_SKILL,
    actionKind: 'MCPToolAction',
    definition,
    parameters,
    readOnly: true,
    // The name is checked by `execute`, whose error lists the skills there are.
    actionFrom: (args) => ({ ok: true, action: { kind: 'MCPToolAction', data: args } }),
    async execute(action, context) {
      const name = (action.data as { name?: unknown }).name;
      const skill = typeof name === 'string' ? skills.get(name) : undefined;
      if (!skill || !names.includes(skill.name)) {
        const asked = typeof name === 'string' ? `'${name}'` : 'a skill without a name';
        return {
          kind: 'MCPToolObservation',
          tool_name: INVOKE_SKILL,
          content: textContent(`There is no skill ${asked}. Available skills: ${names.join(', ')}.`),
          is_error: true,
        };
      }
      return {
        kind: 'MCPToolObservation',
        tool_name: INVOKE_SKILL,
        // Like every tool result: a secret value written into a skill never reaches the LLM.
        content: textContent(context.mask(renderSkillContent(skill))),
        is_error: false,
      };
    },
  };
}
