/**
 * App server start with a big install: a data directory whose SQLite database holds 10,000 users and 100,000
 * conversation rows, then `startAppServer` (open the database and check its migrations, the cache, the object
 * store, build the server, listen) until GET /ready answers 200. Reports that time for 3 runs (target under 1 s).
 * In-process, with the modules already loaded: it measures the start-up work, not Node's module loading.
 * Env: USERS (10000), CONVERSATIONS (100000), RUNS (3).
 * Run: npm run bench:app-server-start
 */
import { appServerConfig, openDatabase, seedForBenchmark, startAppServer } from '@bosun/app-server';
import { tempDataDir } from './support/server-process.ts';
import { hrMs, target } from './support/stats.ts';

const USERS = Number(process.env.USERS ?? 10_000);
const CONVERSATIONS = Number(process.env.CONVERSATIONS ?? 100_000);
const RUNS = Number(process.env.RUNS ?? 3);

const data = await tempDataDir('app-server-start');
try {
  const seedStart = hrMs();
  const database = await openDatabase({ dataDir: data.dir });
  await seedForBenchmark(database, { users: USERS, conversations: CONVERSATIONS });
  await database.close();
  console.log(
    `seeded ${USERS.toLocaleString('en-US')} users, ${CONVERSATIONS.toLocaleString('en-US')} conversations in ${(
      (hrMs() - seedStart) / 1000
    ).toFixed(1)} s`,
  );

  const results: number[] = [];
  for (let run = 1; run <= RUNS; run++) {
    const startedAt = hrMs();
    const running = await startAppServer(appServerConfig({ port: 0, log_level: 'silent', data_dir: data.dir }));
    for (;;) {
      if ((await fetch(`${running.url}/ready`)).status === 200) break;
      if (hrMs() - startedAt > 30_000) throw new Error('server not ready within 30 s');
    }
    const readyMs = hrMs() - startedAt;
    results.push(readyMs);
    console.log(`run ${run}: start -> first 200 from /ready ${readyMs.toFixed(0)} ms`);
    await running.close();
  }
  const sorted = [...results].sort((a, b) => a - b);
  const worst = sorted[sorted.length - 1] as number;
  console.log(
    target(
      'start -> ready < 1 s (10,000 users, 100,000 conversations, SQLite)',
      worst < 1000,
      `best ${(sorted[0] as number).toFixed(0)} ms, median ${(sorted[Math.floor(sorted.length / 2)] as number).toFixed(0)} ms, worst ${worst.toFixed(0)} ms`,
    ),
  );
} finally {
  await data.remove();
}
