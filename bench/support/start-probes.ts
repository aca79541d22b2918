import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { hrMs } from './stats.ts';

/**
 * What no start can go under, printed beside the start's own numbers: a bare Node (`node -e 0`) and the same
 * under bubblewrap with what a sandbox has (its own namespaces, a read-only root, `/dev`, `/proc`), `runs` each.
 */
export function startFloor(runs = 5): { node: number[]; bwrap: number[] } {
  const time = (argv: string[]) => {
    const started = hrMs();
    const done = spawnSync(argv[0] as string, argv.slice(1), { stdio: 'ignore' });
    if (done.status !== 0) throw new Error(`${argv.join(' ')}: exit ${done.status ?? done.signal}`);
    return hrMs() - started;
  };
  const node = [process.execPath, '-e', '0'];
  const bwrap = [
    'bwrap',
    '--unshare-all',
    '--die-with-parent',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
  ];
  return {
    node: Array.from({ length: runs }, () => time(node)),
    bwrap: Array.from({ length: runs }, () => time([...bwrap, ...node])),
  };
}

/**
 * Start task to READY seen from another process (a client that only polls the API, as a person's browser does),
 * `rounds` times: the POST, then the task polled every `pollMs`; each conversation deleted after. Milliseconds.
 * The process's first request (loading its HTTP client) is made before the timing, as a browser's is.
 */
export async function startsFromOutside(
  url: string,
  headers: Record<string, string>,
  rounds: number,
  pollMs: number,
): Promise<number[]> {
  const script = `
    const [url, headers, rounds, pollMs] = [process.argv[1], JSON.parse(process.argv[2]), +process.argv[3], +process.argv[4]];
    const json = { ...headers, 'content-type': 'application/json' };
    const timings = [];
    // The client's own first fetch loads Node's HTTP client (tens of ms): paid before timing, as a browser has paid it.
    await (await fetch(url + '/alive')).text();
    for (let round = 0; round < rounds; round++) {
      const started = performance.now();
      const body = JSON.stringify({ initial_message: { role: 'user', content: [{ type: 'text', text: 'outside ' + round }] } });
      const task = await (await fetch(url + '/api/v1/app-conversations', { method: 'POST', headers: json, body })).json();
      let seen;
      for (;;) {
        [seen] = await (await fetch(url + '/api/v1/app-conversations/start-tasks?ids=' + task.id, { headers })).json();
        if (seen.status === 'READY' || seen.status === 'ERROR') break;
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
      if (seen.status === 'ERROR') throw new Error('start task ERROR: ' + seen.detail);
      timings.push(performance.now() - started);
      await fetch(url + '/api/v1/app-conversations/' + seen.app_conversation_id, { method: 'DELETE', headers });
    }
    console.log(JSON.stringify(timings));
  `;
  const args = ['--input-type=module', '-e', script, url, JSON.stringify(headers), String(rounds), String(pollMs)];
  const { stdout } = await promisify(execFile)(process.execPath, args);
  return JSON.parse(stdout) as number[];
}
