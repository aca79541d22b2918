import { Type } from '@sinclair/typebox';
import type { AllowedHost } from './runtime.ts';

/**
 * The settings that mean the same in the app server (for the sandboxes of its embedded runtime) and in the runtime
 * service (`bosun runtime-api`), defined once: one name, one range, one description.
 */
export function sandboxSettings() {
  return {
    sandbox_network: Type.Union([Type.Literal('none'), Type.Literal('allow'), Type.Literal('open')], {
      default: 'none',
      description:
        'Where sandboxes may connect: none (only their LLM endpoint and the app server), allow (that and ' +
        'sandbox_allow_hosts), open (anywhere, this machine included).',
    }),
    sandbox_allow_hosts: Type.Array(Type.String({ pattern: '^(\\[[0-9A-Fa-f:.]+\\]|[^\\s:/\\[\\]]+):[0-9]{1,5}$' }), {
      default: [],
      expected: 'a list (comma-separated in a variable) of host:port',
      description: 'With sandbox_network allow: the host:port pairs sandboxes may reach besides what they need.',
    }),
    sandbox_memory_mb: Type.Integer({
      minimum: 64,
      maximum: 1_048_576,
      default: 2048,
      description: 'Memory (and swap) of each sandbox, in MiB.',
    }),
    sandbox_cpus: Type.Number({
      minimum: 0.05,
      maximum: 256,
      default: 1,
      description: 'CPUs each sandbox may use (a rate: 0.5 is half of one).',
    }),
    sandbox_processes: Type.Integer({
      minimum: 16,
      maximum: 1_000_000,
      default: 1024,
      description: 'Processes (threads included) of each sandbox.',
    }),
  };
}

/** The API key between the app server and the runtime service: what one sends in X-API-Key, the other takes. */
export function runtimeApiKeySetting(description: string) {
  return Type.Optional(Type.String({ minLength: 16, expected: 'at least 16 characters', secret: true, description }));
}

/** An entry of `sandbox_allow_hosts`, `host:port` (an IPv6 address in brackets), as the runtime takes it. */
export function parseAllowedHost(text: string): AllowedHost {
  const at = text.lastIndexOf(':');
  return { host: text.slice(0, at).replace(/^\[(.*)\]$/, '$1'), port: Number(text.slice(at + 1)) };
}
