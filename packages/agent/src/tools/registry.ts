import type { ToolSpec, ValidationError } from '@bosun/protocol';
import { TOOL_RECORDS } from './list.ts';
import type { ToolRecord, ToolsetOptions } from './tool-record.ts';
import type { Tool } from './tool.ts';

export type { ToolsetOptions } from './tool-record.ts';

export class UnknownToolError extends Error {}

/** What the tools of a list of records are: their names, the check of an agent's specs, and the factory. */
export interface ToolRegistry {
  /** The names agents list in `agent.tools` (OpenHands' names). */
  readonly names: readonly string[];
  /** What is wrong with the tools an agent names: unknown names, and parameters of the wrong type. */
  problems(specs: ToolSpec[], loc: (string | number)[]): ValidationError[];
  /**
   * The tools of an agent: those its spec names, then the `always` ones, each carrying its record's risk rule.
   * Unknown names are an error.
   */
  createToolset(specs: ToolSpec[], options?: ToolsetOptions): Tool[];
}

/** The registry of `records` (Bosun's is built from `TOOL_RECORDS`; a test adds its own tool the same way). */
export function toolRegistry(records: readonly ToolRecord[]): ToolRegistry {
  const listed = new Map(records.filter((record) => !record.always).map((record) => [record.name, record]));
  const always = records.filter((record) => record.always);
  const names = [...listed.keys()];
  const toolsOf = (record: ToolRecord, params: Record<string, unknown>, options: ToolsetOptions) =>
    record.create(params, options).map((tool) => withRisk(tool, record.riskSubject as Tool['riskSubject']));
  return {
    names,
    problems: (specs, loc) =>
      specs.flatMap((spec, index): ValidationError[] => {
        const record = listed.get(spec.name);
        if (!record) {
          return [
            {
              loc: [...loc, index, 'name'],
              msg: `Unknown tool '${spec.name}'; available tools: ${names.join(', ')}`,
              type: 'value_error',
            },
          ];
        }
        return (record.secondsParams ?? []).flatMap((name) =>
          secondsProblems(spec.params[name], [...loc, index, 'params', name]),
        );
      }),
    createToolset(specs, options = {}) {
      const tools: Tool[] = [];
      for (const spec of specs) {
        const record = listed.get(spec.name);
        if (!record) {
          throw new UnknownToolError(`Unknown tool '${spec.name}'. Available tools: ${names.join(', ')}.`);
        }
        tools.push(...toolsOf(record, spec.params, options));
      }
      for (const record of always) tools.push(...toolsOf(record, {}, options));
      const seen = new Set<string>();
      return tools.filter((tool) => !seen.has(tool.name) && seen.add(tool.name));
    },
  };
}

function secondsProblems(value: unknown, loc: (string | number)[]): ValidationError[] {
  if (value === undefined || (typeof value === 'number' && Number.isFinite(value) && value > 0)) return [];
  return [
    {
      loc,
      msg: `Input should be a number of seconds greater than 0, got ${JSON.stringify(value)}`,
      type: 'greater_than',
    },
  ];
}

/** The tool, fresh from its record's factory, carrying the record's rule (the run loop hands it to the analyzer). */
function withRisk(tool: Tool, riskSubject: Tool['riskSubject']): Tool {
  return Object.assign(tool, { riskSubject });
}

const BOSUN_TOOLS = toolRegistry(TOOL_RECORDS);

/** Tools by the registry names agents list in `agent.tools` (OpenHands' names). */
export const TOOL_NAMES = [...BOSUN_TOOLS.names];

/** What is wrong with the tools an agent names: unknown names, and parameters of the wrong type. */
export function toolSpecProblems(specs: ToolSpec[], loc: (string | number)[]): ValidationError[] {
  return BOSUN_TOOLS.problems(specs, loc);
}

/** The tools of an agent: those its spec names, then the built-ins. Unknown names are an error. */
export function createToolset(specs: ToolSpec[], options: ToolsetOptions = {}): Tool[] {
  return BOSUN_TOOLS.createToolset(specs, options);
}
