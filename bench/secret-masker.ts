/**
 * Secret masking throughput: the masker runs on every tool result, so it must stay cheap as the number of
 * secrets grows. Masks a 30 KB tool output (a few secrets in it, plain and base64) with 1, 5 and 20 secrets;
 * reports MB/s and the time to build a masker (done once per batch of tool calls).
 * Run: npm run bench:secret-masker
 */
import { randomBytes } from 'node:crypto';
import { secretMasker } from '@bosun/agent';
import { formatMs, hrMs } from './support/stats.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 300);
const line = (n: number) =>
  `${String(n).padStart(6, '0')}  drwxr-xr-x  2 user staff  4096 Nov 24 06:55 some-directory-name\n`;
const secretsOf = (count: number) => Array.from({ length: count }, () => randomBytes(18).toString('base64url'));

for (const count of [1, 5, 20]) {
  const secrets = secretsOf(count);
  const body = Array.from({ length: 400 }, (_, i) => line(i)).join('');
  const text = `${body}token=${secrets[0]}\n${Buffer.from(`Bearer ${secrets.at(-1)}`).toString('base64')}\n`;
  const builds: number[] = [];
  const masks: number[] = [];
  let masked = '';
  for (let round = 0; round < ROUNDS; round++) {
    let start = hrMs();
    const mask = secretMasker(secrets);
    builds.push(hrMs() - start);
    start = hrMs();
    masked = mask(`${round}${text}`);
    masks.push(hrMs() - start);
  }
  if (masked.includes(secrets[0] as string)) throw new Error('the secret was not masked');
  const median = [...masks].sort((a, b) => a - b)[Math.floor(masks.length / 2)] as number;
  console.log(
    `${count} secret(s), ${(text.length / 1024).toFixed(0)} KB: ${(text.length / 1e6 / (median / 1000)).toFixed(0)} MB/s`,
  );
  console.log(`  ${formatMs('mask', masks)}`);
  console.log(`  ${formatMs('build', builds)}`);
}
