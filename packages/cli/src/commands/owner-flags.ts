/** `--flag value` and `--flag=value` pairs of the known `names`; a message for anything else. */
export function parseFlags<Flag extends string>(
  args: readonly string[],
  names: readonly Flag[],
): Partial<Record<Flag, string>> | string {
  const flags: Partial<Record<Flag, string>> = {};
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    const [name, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg];
    if (!names.includes(name as Flag)) return `unknown option '${name}'`;
    if (inline === undefined) i += 1;
    const value = inline ?? args[i];
    if (value === undefined || value === '') return `${name} needs a value`;
    flags[name as Flag] = value;
  }
  return flags;
}
