/**
 * Variables of the server's environment a command never inherits: Bosun's own settings (session keys, the
 * secrets key, the default model's key) and anything that looks like a credential (as for the agent's shell).
 */
const SERVER_ONLY = /^BOSUN_|^OH_|^SESSION_API_KEY|API_KEY|SECRET|TOKEN|PASSWORD|CREDENTIAL|PRIVATE_KEY/i;

/** The environment of a command: the server's, less its secrets, with no pager. */
export function commandEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !SERVER_ONLY.test(key)) env[key] = value;
  }
  return Object.assign(env, { PAGER: 'cat', GIT_PAGER: 'cat' });
}
