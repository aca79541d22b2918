/** Small readers of command-line arguments, shared by the command rules. */

/** The arguments that are not options (after `--` everything is one), skipping the values of `valued` options. */
export function operands(args: string[], valued: readonly string[] = []): string[] {
  const out: string[] = [];
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (options && arg === '--') {
      options = false;
      continue;
    }
    if (options && arg.startsWith('-') && arg !== '-') {
      if (valued.includes(arg)) i++;
      continue;
    }
    out.push(arg);
  }
  return out;
}

/** Whether a short flag among `letters` (alone or bundled: `-rf`) or one of the `longs` is given. */
export function hasFlag(args: string[], letters: string, longs: readonly string[] = []): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg.startsWith('--')) {
      if (longs.some((long) => arg === long || arg.startsWith(`${long}=`))) return true;
    } else if (arg.startsWith('-') && arg.length > 1 && /^-[A-Za-z]+$/.test(arg)) {
      if ([...letters].some((letter) => arg.includes(letter))) return true;
    }
  }
  return false;
}

/** The value of an option: `-o X`, `--output X`, `--output=X` (and `-oX` for short ones); undefined if absent. */
export function optionValue(args: string[], names: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') return undefined;
    for (const name of names) {
      if (arg === name) return args[i + 1];
      if (name.startsWith('--') && arg.startsWith(`${name}=`)) return arg.slice(name.length + 1);
      if (!name.startsWith('--') && arg.startsWith(name) && arg.length > name.length && name.length === 2) {
        return arg.slice(2);
      }
    }
  }
  return undefined;
}

/** Every value of an option given several times (`-c A -c B`). */
export function optionValues(args: string[], names: readonly string[]): string[] {
  const values: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    for (const name of names) {
      if (arg === name && i + 1 < args.length) values.push(args[i + 1] as string);
      else if (name.startsWith('--') && arg.startsWith(`${name}=`)) values.push(arg.slice(name.length + 1));
    }
  }
  return values;
}
