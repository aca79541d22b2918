/**
 * A runtime in a process of its own (the test kills it): opens a local runtime over argv[2], starts one sandbox
 * and prints it as one JSON line, then waits to be killed.
 */
import { LocalRuntime } from '@bosun/runtime';
import { SANDBOX_COMMAND } from '../../../../test/support/sandbox-bundle.ts';

const root = process.argv[2];
if (!root) throw new Error('usage: runtime-child.ts ROOT');
const runtime = await LocalRuntime.open({ root, command: SANDBOX_COMMAND, startTimeoutMs: 90_000 });
const sandbox = await runtime.start({ sessionId: 'orphan' });
process.stdout.write(`${JSON.stringify(sandbox)}\n`);
setInterval(() => {}, 60_000);
