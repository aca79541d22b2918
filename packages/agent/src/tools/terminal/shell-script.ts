/** The bash text a `ShellSession` writes and types: its init script, the line that runs a command, quoting. */

export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * Sourced once at start: no echo, no history, no prompt but the sentinel `PROMPT_COMMAND` prints to the
 * terminal (`__BOSUN_<nonce>__ <id> <exit code> <cwd>`) whenever the shell is back at its prompt.
 */
export function initScript(nonce: string): string {
  return [
    'stty -echo 2>/dev/null',
    'set +o history +H -o ignoreeof',
    'unset HISTFILE',
    "PS1=''; PS2=''",
    '__bosun_prompt() {',
    '  local __rc=$?',
    '  if [ -n "$__b_rc" ]; then __rc=$__b_rc; fi',
    `  printf '\\n__BOSUN_%s__ %s %s %s\\n' "$__bosun_nonce" "\${__b_id:-none}" "$__rc" "$PWD" >/dev/tty`,
    '  __b_id=; __b_rc=',
    '}',
    `__bosun_nonce=${nonce}`,
    '__b_id=init; __b_rc=',
    'PROMPT_COMMAND=__bosun_prompt',
    'declare +x PROMPT_COMMAND __bosun_nonce __b_id __b_rc',
    '',
  ].join('\n');
}

/** `export NAME='value'` lines for the variables of `env` whose names bash accepts. */
export function exportLines(env: Record<string, string>): string {
  return Object.entries(env)
    .filter(([name]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    .map(([name, value]) => `export ${name}=${shellQuote(value)}\n`)
    .join('');
}

/**
 * The line typed to run the command in `commandFile` as command `id`, after sourcing (then removing) the
 * exports in `envFile` when there is one.
 */
export function commandLine(id: string, commandFile: string, envFile?: string): string {
  const prelude = envFile ? `{ . ${shellQuote(envFile)}; command rm -f -- ${shellQuote(envFile)}; } 2>/dev/null; ` : '';
  return `__b_id=${id}; __b_rc=; ${prelude}eval "$(< ${shellQuote(commandFile)})"; __b_rc=$?; PROMPT_COMMAND=__bosun_prompt\n`;
}
