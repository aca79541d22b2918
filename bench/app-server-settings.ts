/**
 * An authenticated `GET /api/v1/settings` (API key lookup by digest, settings opened from their sealed row, the
 * user's Git providers, the instance's LLM defaults): sequential requests over one keep-alive connection after a
 * warm-up, on SQLite and on PostgreSQL (127.0.0.1:5432, a database made for the run and dropped after).
 * Targets: p50 under 1 ms on SQLite, under 2 ms on PostgreSQL.
 * Env: REQUESTS (5000), WARMUP (500), POSTGRES (postgres://postgres@127.0.0.1:5432; "" skips PostgreSQL).
 * Run: npm run bench:app-server-settings
 */
import { randomBytes } from 'node:crypto';
import { type AppServerConfig, appServerConfig, createOwnerApiKey, startAppServer } from '@bosun/app-server';
import pg from 'pg';
import { httpRequest, keepAliveAgent } from './support/http.ts';
import { tempDataDir } from './support/server-process.ts';
import { formatMs, hrMs, summarize, target } from './support/stats.ts';

const REQUESTS = Number(process.env.REQUESTS ?? 5000);
const WARMUP = Number(process.env.WARMUP ?? 500);
const POSTGRES = process.env.POSTGRES ?? 'postgres://postgres@127.0.0.1:5432';

async function measure(label: string, goalMs: number, config: Partial<AppServerConfig>): Promise<void> {
  const data = await tempDataDir('app-server-settings');
  const running = await startAppServer(
    appServerConfig({ port: 0, log_level: 'silent', data_dir: data.dir, llm_model: 'bench/model', ...config }),
  );
  try {
    const key = await createOwnerApiKey({ dataDir: data.dir, databaseUrl: config.database_url });
    const headers = { authorization: `Bearer ${key}` };
    const agent = keepAliveAgent(1);
    const url = `${running.url}/api/v1/settings`;
    const stored = await httpRequest(
      agent,
      url,
      'POST',
      { llm_api_key: 'sk-bench', disabled_skills: ['a', 'b'] },
      headers,
    );
    if (stored.status !== 200) throw new Error(`POST settings: HTTP ${stored.status} ${stored.body}`);
    const timings: number[] = [];
    for (let i = 0; i < WARMUP + REQUESTS; i++) {
      const started = hrMs();
      const answer = await httpRequest(agent, url, 'GET', undefined, headers);
      if (answer.status !== 200) throw new Error(`GET settings: HTTP ${answer.status} ${answer.body}`);
      if (i >= WARMUP) timings.push(hrMs() - started);
    }
    agent.destroy();
    console.log(formatMs(`GET /api/v1/settings (${label})`, timings));
    const { p50 } = summarize(timings);
    console.log(target(`p50 < ${goalMs} ms on ${label}`, p50 < goalMs, `p50 ${p50.toFixed(3)} ms`));
  } finally {
    await running.close();
    await data.remove();
  }
}

await measure('SQLite', 1, {});
if (POSTGRES) {
  const name = `bosun_bench_${randomBytes(6).toString('hex')}`;
  try {
    await measure('PostgreSQL', 2, { database_url: `${POSTGRES}/${name}`, create_databases: true });
  } finally {
    const admin = new pg.Client({ connectionString: `${POSTGRES}/postgres` });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}
