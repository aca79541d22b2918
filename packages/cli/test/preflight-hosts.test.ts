import { describe, expect, it } from 'vitest';
import { systemResolver } from '../src/install/preflight/dns-checks.ts';
import { secretObject } from './install-support.ts';
import { EXAMPLE, preflight, result, tlsSecret, usePassingCluster } from './preflight-support.ts';
import { scratchDir } from './scratch.ts';

const scratch = scratchDir('bosun-preflight-hosts-');
const cluster = usePassingCluster(scratch);

const run = (extra: Record<string, unknown> = {}, resolve?: (host: string) => Promise<string[]>) =>
  preflight([EXAMPLE, cluster.local], cluster.kubeconfig, resolve, extra);
const APP_TLS = 'TLS of the app host bosun.example.com';

describe('DNS', () => {
  it('fails a host that does not resolve, naming the record to create (a wildcard for sandboxes)', async () => {
    const resolve = async (host: string) => {
      if (host.endsWith('-runtime.example.com')) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      return ['192.0.2.10'];
    };
    const results = await run({}, resolve);
    expect(result(results, 'DNS of the sandbox host preflight0sandbox-runtime.example.com')).toMatchObject({
      outcome: 'fail',
      detail: 'does not resolve (ENOTFOUND)',
      fix: "create the DNS record *.example.com for the ingress controller's address, or correct env.RUNTIME_URL_PATTERN",
    });
    expect(result(results, 'DNS of the app host bosun.example.com')).toMatchObject({
      outcome: 'pass',
      detail: 'resolves to 192.0.2.10',
    });
  });

  it('fails a look-up that does not answer in time', async () => {
    const results = await run({}, () => new Promise(() => {}));
    expect(result(results, 'DNS of the auth host auth.bosun.example.com')).toMatchObject({
      outcome: 'fail',
      detail: 'does not resolve (resolving auth.bosun.example.com: no answer within 3s)',
    });
  });

  it("resolves with the system's resolver: localhost does, a name under .invalid does not", async () => {
    const hosts = { ingress: { host: 'localhost' }, keycloak: { ingress: { hostname: 'auth.bosun.invalid' } } };
    const results = await preflight([EXAMPLE, cluster.local], cluster.kubeconfig, systemResolver, hosts);
    expect(result(results, 'DNS of the app host localhost').outcome).toBe('pass');
    expect(result(results, 'DNS of the app host localhost').detail).toMatch(/^resolves to .*(127\.0\.0\.1|::1)/);
    expect(result(results, 'DNS of the auth host auth.bosun.invalid')).toMatchObject({
      outcome: 'fail',
      detail: 'does not resolve (ENOTFOUND)',
    });
  });
});

describe('TLS', () => {
  it("warns of a missing certificate that the ingress annotations' cert-manager issuer makes", async () => {
    cluster.standIn.remove('Secret', 'bosun', 'bosun.example.com-tls');
    expect(result(await run(), APP_TLS)).toMatchObject({
      outcome: 'warn',
      detail: 'no Secret bosun.example.com-tls in namespace bosun (tls.enabled, tls.secretName) yet',
    });
  });

  it('fails a missing certificate nothing issues, in tls.secretName when set', async () => {
    const results = await run({ ingress: { annotations: null }, tls: { secretName: 'app-cert' } });
    expect(result(results, APP_TLS)).toMatchObject({
      outcome: 'fail',
      detail: 'no Secret app-cert in namespace bosun (tls.enabled, tls.secretName)',
      fix: 'kubectl -n bosun create secret tls app-cert --cert=CERT --key=KEY with a certificate for bosun.example.com',
    });
  });

  it('fails a certificate that does not cover its host, and a Secret not of type kubernetes.io/tls', async () => {
    cluster.standIn.remove('Secret', 'bosun', 'bosun.example.com-tls');
    cluster.standIn.put(
      await tlsSecret(scratch.dir, 'bosun', 'bosun.example.com-tls', ['other.example.com', '*.bosun.example.com']),
    );
    expect(result(await run(), APP_TLS)).toMatchObject({
      outcome: 'fail',
      detail:
        'the certificate of Secret bosun.example.com-tls in namespace bosun does not cover it (DNS:other.example.com, DNS:*.bosun.example.com)',
    });
    cluster.standIn.remove('Secret', 'bosun', 'bosun.example.com-tls');
    cluster.standIn.put(secretObject('bosun', 'bosun.example.com-tls', { 'tls.crt': 'x', 'tls.key': 'y' }));
    expect(result(await run(), APP_TLS)).toMatchObject({
      outcome: 'fail',
      detail: 'Secret bosun.example.com-tls in namespace bosun is of type Opaque, not kubernetes.io/tls',
    });
  });

  it('passes a wildcard certificate for sandboxes, and warns of one about to expire', async () => {
    const sandbox = 'TLS of the sandbox host preflight0sandbox-runtime.example.com';
    expect(result(await run(), sandbox).detail).toMatch(
      /^Secret wildcard-runtime-tls in namespace bosun-sandboxes covers it \(DNS:\*\.example\.com\)/,
    );
    cluster.standIn.remove('Secret', 'bosun-sandboxes', 'wildcard-runtime-tls');
    cluster.standIn.put(await tlsSecret(scratch.dir, 'bosun-sandboxes', 'wildcard-runtime-tls', ['*.example.com'], 3));
    expect(result(await run(), sandbox)).toMatchObject({
      outcome: 'warn',
      fix: 'renew the certificate in wildcard-runtime-tls',
    });
  });

  it('warns when the sandbox namespace does not exist yet, and when https sandboxes name no certificate', async () => {
    const elsewhere = await run({ 'runtime-api': { sandbox_namespace: 'sandboxes-later' } });
    expect(result(elsewhere, 'TLS of the sandbox host preflight0sandbox-runtime.example.com')).toMatchObject({
      outcome: 'warn',
      detail:
        'no Secret wildcard-runtime-tls in namespace sandboxes-later (runtime-api.sandboxTlsSecret): the namespace does not exist yet',
    });
    const none = await run({ 'runtime-api': { sandboxTlsSecret: '' } });
    expect(result(none, 'TLS of the sandbox hosts *.example.com')).toMatchObject({ outcome: 'warn' });
  });

  it('checks no certificate when TLS is off', async () => {
    const results = await run({
      tls: { enabled: false },
      keycloak: { ingress: { tls: false } },
      publicUrlScheme: 'https',
    });
    expect(
      results.filter((r) => r.check.startsWith('TLS of the app') || r.check.startsWith('TLS of the auth')),
    ).toEqual([]);
  });
});
