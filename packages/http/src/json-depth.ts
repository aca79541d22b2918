/**
 * How deep a JSON value may nest. Free-form fields (tool arguments, `system_prompt_kwargs`) take any JSON, and
 * much of the server walks values recursively (`JSON.stringify`, secret masking): a value thousands of levels
 * deep overflows the stack there. 200 is the recursion limit of pydantic's JSON parser, which OpenHands
 * clients already live within.
 */
export const MAX_JSON_DEPTH = 200;

/** Whether `value` nests deeper than `max` levels of arrays and objects (walks at most `max` levels down). */
export function nestsDeeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (max === 0) return true;
  for (const child of Array.isArray(value) ? value : Object.values(value)) {
    if (nestsDeeperThan(child, max - 1)) return true;
  }
  return false;
}

/** The validation problem of a value nested too deep (`loc` is where the whole value is). */
export function tooDeep(loc: (string | number)[]) {
  return { loc, msg: `JSON is nested deeper than ${MAX_JSON_DEPTH} levels`, type: 'json_invalid' };
}
