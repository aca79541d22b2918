/**
 * App-conversation search through HTTP over 10,000 conversations of one user (and as many of another user in the
 * same tables): `GET /api/v1/app-conversations/search` newest first, with a title filter, with a sandbox filter, and
 * `/count` with the title filter; sequential requests over one keep-alive connection after a warm-up, on SQLite
 * and on PostgreSQL (127.0.0.1:5432, a database made for the run and dropped after).
 * Target: p50 under 10 ms for each, on both.
 * Env: CONVERSATIONS (10000), REQUESTS (300), WARMUP (30), POSTGRES (postgres://postgres@127.0.0.1:5432; "" skips it).
 * Run: npm run bench:app-conversation-search
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { type AppServerConfig, appServerConfig, createOwnerApiKey, startAppServer } from '@bosun/app-server';
import pg from 'pg';
import { httpRequest, keepAliveAgent } from './support/http.ts';
import { tempDataDir } from './support/server-process.ts';
import { formatMs, hrMs, summarize, target } from './support/stats.ts';

const CONVERSATIONS = Number(process.env.CONVERSATIONS ?? 10_000);
const REQUESTS = Number(process.env.REQUESTS ?? 300);
const WARMUP = Number(process.env.WARMUP ?? 30);
const POSTGRES = process.env.POSTGRES ?? 'postgres://postgres@127.0.0.1:5432';
const GOAL_MS = 10;

const QUERIES: Record<string, string> = {
  'search, newest first': '/api/v1/app-conversations/search?limit=100',
  'search, title contains': '/api/v1/app-conversations/search?limit=100&title__contains=parsers',
  'search, one sandbox': '/api/v1/app-conversations/search?limit=100&sandbox_id__eq=sandbox-7',
  'count, title contains': '/api/v1/app-conversations/count?title__contains=parsers',
};

async function measure(label: string, config: Partial<AppServerConfig>): Promise<void> {
  const data = await tempDataDir('app-conversation-search');
  const running = await startAppServer(
    appServerConfig({ port: 0, log_level: 'silent', data_dir: data.dir, ...config }),
  );
  try {
    const key = await createOwnerApiKey({ dataDir: data.dir, databaseUrl: config.database_url });
    const headers = { authorization: `Bearer ${key}` };
    const agent = keepAliveAgent(1);
    const me = JSON.parse((await httpRequest(agent, `${running.url}/api/v1/users/me`, 'GET', undefined, headers)).body);
    const services = running.server.context.services;
    if (!services) throw new Error('the server has no database');
    const neighbour = await services.repositories.users.create();
    const rows = [];
    for (let index = 0; index < CONVERSATIONS; index++) {
      const at = new Date(Date.UTC(2026, 0, 1) + index * 1_000).toISOString();
      for (const userId of [me.id as string, neighbour.id]) {
        rows.push({
          id: randomUUID(),
          user_id: userId,
          sandbox_id: `sandbox-${index % 50}`,
          title: `Conversation ${index} about ${index % 7 === 0 ? 'parsers' : 'docs'}`,
          created_at: at,
          updated_at: at,
        });
      }
    }
    await services.repositories.conversations.insert(rows);
    if (config.database_url) {
      // What autovacuum does after a bulk insert; without statistics the planner picks worse plans at first.
      const client = new pg.Client({ connectionString: config.database_url });
      await client.connect();
      await client.query('ANALYZE app_conversations');
      await client.end();
    }
    for (const [name, path] of Object.entries(QUERIES)) {
      const timings: number[] = [];
      for (let i = 0; i < WARMUP + REQUESTS; i++) {
        const started = hrMs();
        const answer = await httpRequest(agent, `${running.url}${path}`, 'GET', undefined, headers);
        if (answer.status !== 200) throw new Error(`${path}: HTTP ${answer.status} ${answer.body}`);
        if (i >= WARMUP) timings.push(hrMs() - started);
      }
      console.log(formatMs(`${name} (${label}, ${CONVERSATIONS} of the user's)`, timings));
      const { p50 } = summarize(timings);
      console.log(target(`${name}: p50 < ${GOAL_MS} ms on ${label}`, p50 < GOAL_MS, `p50 ${p50.toFixed(3)} ms`));
    }
    agent.destroy();
  } finally {
    await running.close();
    await data.remove();
  }
}

await measure('SQLite', {});
if (POSTGRES) {
  const name = `bosun_bench_${randomBytes(6).toString('hex')}`;
  try {
    await measure('PostgreSQL', { database_url: `${POSTGRES}/${name}`, create_databases: true });
  } finally {
    const admin = new pg.Client({ connectionString: `${POSTGRES}/postgres` });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}
