import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const exec = promisify(execFile);

describe('the SQLite driver on the Node that runs Bosun', () => {
  it('lets the garbage collector finalize statements while the process runs (no abort, as on Node 24.19 to 24.21)', async () => {
    // Node 24.19 to 24.21 abort the process when V8 finalizes an addon's node::ObjectWrap (better-sqlite3's
    // statements) in a collection started by an allocation: `bosun serve` died at start. Node 24.22 fixed it,
    // hence the engines of the root package.
    const script = `
      const Database = require('better-sqlite3');
      const db = new Database(':memory:');
      let kept = [];
      for (let i = 0; i < 300000; i++) {
        kept.push(db.prepare('select 1'));
        if (kept.length > 1000) kept = [];
      }
      setTimeout(() => console.log(db.prepare('select 2 as n').get().n), 50);
    `;
    const { stdout } = await exec(process.execPath, ['-e', script], { cwd: new URL('..', import.meta.url) });
    expect(stdout.trim()).toBe('2');
  }, 180_000);
});
