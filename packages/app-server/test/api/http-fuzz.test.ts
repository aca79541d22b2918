import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type FuzzContext,
  type FuzzRequest,
  operationsOf,
  problemWith,
  requestFor,
} from '../../../../test/e2e/fuzz-requests.ts';
import { type Reply, fuzz, fuzzSettings } from '../../../../test/e2e/fuzz-run.ts';
import type { Schema } from '../../../../test/e2e/schema-arbitraries.ts';
import { TestRepository } from '../../../agent/test/git/support.ts';
import { closedPort } from '../../../agent/test/support/closed-port.ts';
import { gitRemotes } from '../support/git-remotes.ts';
import { describeApi } from './harness.ts';
import { type World, sanitizer, worldOf } from './http-fuzz-world.ts';
import { MARKET } from './marketplace-org.ts';

/**
 * Requests generated from the app server's own OpenAPI document (every operation; path, query and body filled with
 * valid and invalid values, ids that exist mixed in), mostly as a signed-in user, some without credentials or with
 * wrong ones. Whatever the input: no 5xx, an answer within a bound, every 4xx in the one error shape, no unhandled
 * rejection. `BOSUN_FUZZ_SEED` replays a run, `BOSUN_FUZZ_RUNS` changes its size.
 *
 * Sandboxes are started by what the requests ask (sandboxes, conversations, resumes), so their command is one that
 * exits at once (`false`): each start fails fast and cheaply (ERROR), and no agent server runs. Git is the test's
 * `git http-backend` server (every provider URL), and whatever else a body names is pinned (`sanitizer`).
 */
const { runs: RUNS, seed: SEED } = fuzzSettings(1000);
const ANSWER_WITHIN_MS = 10_000;

const remotes = gitRemotes('bosun-http-fuzz-', async (dir) => {
  await (await TestRepository.create(dir, 'acme/market')).commit(MARKET);
  await (await TestRepository.create(dir, 'acme/app')).commit({ 'README.md': '# app\n' });
});
const options = {
  get config() {
    const url = remotes.server().url;
    return {
      git_github_url: url,
      git_gitlab_url: url,
      git_bitbucket_url: url,
      git_allow_private_hosts: true,
      instance_marketplaces: ['github:acme/market#company##'],
      sandbox_command: ['false'],
      sandbox_start_timeout: 5,
      log_level: 'warn' as const,
    };
  },
};

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeAll(() => {
  process.on('unhandledRejection', onUnhandled);
});
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
});

/**
 * Who sends a request: mostly the user (their API key, one bound to their organization, or their session's
 * cookie), sometimes another user, nobody, a wrong key, a wrong cookie or a sandbox's header; with `X-Org-Id` or not.
 */
function credentials(world: World): fc.Arbitrary<Record<string, string>> {
  const who = fc.oneof(
    { weight: 10, arbitrary: fc.constant(world.user.headers) },
    { weight: 2, arbitrary: fc.constantFrom(...world.signed) },
    { weight: 1, arbitrary: fc.constant(world.member.headers) },
    { weight: 1, arbitrary: fc.constant({}) },
    { weight: 1, arbitrary: fc.constantFrom({ authorization: 'Bearer bsn_not-a-key' }, { cookie: 'bosun_session=x' }) },
    { weight: 1, arbitrary: fc.constant({ 'x-session-api-key': 'not-a-session-key' }) },
  );
  const org = fc.option(fc.constantFrom(...world.orgHeaders), { freq: 8 });
  return fc.tuple(who, org).map(([headers, orgId]) => (orgId === null ? headers : { ...headers, 'x-org-id': orgId }));
}

/**
 * A 502 in the one shape saying that a sandbox's agent server failed: what the sandbox routes document when it did
 * not start or does not answer, which every sandbox of this test does (its command exits, or no process is behind
 * a RUNNING record). Any other 5xx is a bug.
 */
function upstreamFailure(reply: Reply): boolean {
  if (reply.status !== 502 || problemWith({ status: 400, text: reply.text })) return false;
  return /^The (sandbox|agent server)/.test((JSON.parse(reply.text) as { detail: string }).detail);
}

/**
 * A start's 409 asking to trust plugins names them in `sources` besides its detail (documented: the client reads
 * them to ask the person): judged as its detail alone. Every other 4xx is `{detail}` only.
 */
function withoutTrustSources(reply: Reply): Reply {
  if (reply.status !== 409) return reply;
  try {
    const { sources, ...rest } = JSON.parse(reply.text) as Record<string, unknown>;
    return Array.isArray(sources) ? { status: 409, text: JSON.stringify(rest) } : reply;
  } catch {
    return reply;
  }
}

describeApi(
  'HTTP fuzzing from the OpenAPI document',
  (api) => {
    it(`answers ${RUNS} generated requests without a 5xx, a hang, or another error shape`, async () => {
      const document = (await api().call('/openapi.json')).body;
      const components = (document.components as { schemas: Record<string, Schema> }).schemas;
      const world = await worldOf(api());
      const closedUrl = `http://127.0.0.1:${await closedPort()}`;
      const context: FuzzContext = {
        components,
        pathValues: world.pathValues,
        queryValues: world.queryValues,
        sanitize: sanitizer(remotes.server().url, closedUrl),
      };
      const operations = operationsOf(document).filter((operation) => operation.path.startsWith('/api/v1/'));
      expect(operations.length).toBeGreaterThan(60);
      const requests = fc
        .tuple(fc.oneof(...operations.map((operation) => requestFor(operation, context))), credentials(world))
        .map(([request, headers]): FuzzRequest => ({ ...request, headers: { ...headers, ...request.headers } }));

      const statuses = await fuzz({
        url: api().url,
        requests,
        runs: RUNS,
        seed: SEED,
        withinMs: ANSWER_WITHIN_MS,
        problem: (reply) => (upstreamFailure(reply) ? undefined : problemWith(withoutTrustSources(reply))),
        // What a request deleted is replaced, so that later requests still reach existing ids.
        after: async (request, reply) => {
          if (reply.status >= 300 || (request.method !== 'DELETE' && !request.url.endsWith('/leave'))) return;
          for (const [name, values] of Object.entries(world.pathValues)) {
            for (const value of [...values]) if (request.url.includes(`/${value}`)) await world.replace(name, value);
          }
        },
      });
      if (process.env.BOSUN_FUZZ_VERBOSE) console.log(SEED, JSON.stringify([...statuses].sort(([a], [b]) => a - b)));
      expect(unhandled).toEqual([]);
    }, 600_000);
  },
  options,
);
