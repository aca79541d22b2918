import { lookup } from 'node:dns/promises';
import type { InstallValues } from '../install-values.ts';
import { type CheckResult, fail, pass, within } from './check.ts';
import { servedHosts } from './hosts.ts';

/** Resolves a host name to its addresses, as browsers and the cluster would (the system's resolver). */
export type ResolveHost = (host: string) => Promise<string[]>;

export const systemResolver: ResolveHost = async (host) =>
  (await lookup(host, { all: true })).map((found) => found.address);

/** Each host the values serve resolves (sandboxes through a sample host of their wildcard record). */
export async function dnsChecks(
  values: InstallValues,
  resolve: ResolveHost,
  timeoutMs: number,
): Promise<CheckResult[]> {
  return Promise.all(
    servedHosts(values).map(async ({ role, host, keys, record }) => {
      const check = `DNS of the ${role} host ${host}`;
      try {
        const addresses = await within(timeoutMs, `resolving ${host}`, resolve(host));
        return pass(check, `resolves to ${addresses.join(', ')}`);
      } catch (error) {
        const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        const fix = `create the DNS record ${record} for the ingress controller's address, or correct ${keys}`;
        return fail(check, `does not resolve (${why})`, fix);
      }
    }),
  );
}
