import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { find, render } from './support/helm.ts';

// The bundled PostgreSQL's init script, as rendered, run by a real psql against the machine's PostgreSQL
// (127.0.0.1:5432, trust authentication): the role the app logs in as, and Keycloak's database.
const suffix = `${process.pid}_${Date.now().toString(36)}`;
const role = `chart_app_${suffix}`;
const database = `chart_kc_${suffix}`;
const admin = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' });
const dir = mkdtempSync(join(tmpdir(), 'bosun-chart-pg-'));

afterAll(async () => {
  await admin.query(`DROP DATABASE IF EXISTS ${database}`);
  await admin.query(`DROP ROLE IF EXISTS ${role}`);
  await admin.end();
  rmSync(dir, { recursive: true, force: true });
});

describe('the bundled PostgreSQL init script', () => {
  it("creates the app's role from the secret (allowed to create databases) and Keycloak's database", async () => {
    const objects = await render(['--set', 'keycloak.enabled=true', '--set', `keycloak.database=${database}`]);
    const script = (find(objects, 'ConfigMap', 'bosun-postgresql-init').data as Record<string, string>)[
      '10-app-role.sh'
    ];
    writeFileSync(join(dir, 'username'), role);
    writeFileSync(join(dir, 'password'), 'it\'s a "quoted" secret');
    const run = spawnSync('sh', ['-c', script ?? 'exit 1'], {
      encoding: 'utf8',
      env: { ...process.env, POSTGRES_SECRETS_DIR: dir, PGHOST: '127.0.0.1', PGPORT: '5432' },
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    await admin.connect();
    const roles = await admin.query('SELECT rolcanlogin, rolcreatedb FROM pg_roles WHERE rolname = $1', [role]);
    expect(roles.rows).toEqual([{ rolcanlogin: true, rolcreatedb: true }]);
    const owner = await admin.query('SELECT pg_get_userbyid(datdba) AS owner FROM pg_database WHERE datname = $1', [
      database,
    ]);
    expect(owner.rows).toEqual([{ owner: role }]);
  });
});
