import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type FuzzContext,
  type FuzzRequest,
  operationsOf,
  problemWith,
  requestFor,
} from '../../../../test/e2e/fuzz-requests.ts';
import { type FuzzRun, type Reply, fuzz, fuzzSettings } from '../../../../test/e2e/fuzz-run.ts';
import type { Schema } from '../../../../test/e2e/schema-arbitraries.ts';
import { TestRepository } from '../../../sources/test/git/support.ts';
import { closedPort } from '../../../sources/test/support/closed-port.ts';
import { LOCAL_SPEC } from '../../src/sandboxes/index.ts';
import { newConversation, startOnAgent } from '../events/support.ts';
import { gitRemotes } from '../support/git-remotes.ts';
import { TestIssuer } from '../support/oidc-issuer.ts';
import { type Api, describeApi } from './harness.ts';
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
/** Requests of the block with a running sandbox (its webhooks, its conversation): slower ones. */
const SANDBOX_RUNS = Math.ceil(RUNS / 4);
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
      plugin_directory_source: 'github:acme/market',
      plugin_directory_featured: ['formatter'],
      sandbox_command: ['false'],
      sandbox_start_timeout: 5,
      log_level: 'warn' as const,
      // Sign-in through a real issuer: login redirects to it, callbacks are refused before reaching it.
      oidc_issuer_url: issuer?.url,
      oidc_client_id: 'bosun',
      oidc_client_secret: 'bosun-test-secret',
      oidc_providers: ['github'],
    };
  },
};

let issuer: TestIssuer | undefined;
beforeAll(async () => {
  issuer = await TestIssuer.start({ redirectUris: ['http://127.0.0.1/api/v1/auth/callback'] });
});
afterAll(() => issuer?.close());

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeAll(() => {
  process.on('unhandledRejection', onUnhandled);
});
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
});

/** One of `values` as they are when a request is generated (the world replaces what requests delete). */
const live = <T>(values: T[]) => fc.nat().map((i) => values[i % values.length] as T);

/**
 * Who sends a request: mostly the user (their API key, one bound to their organization, or their session's
 * cookie), sometimes another user, nobody, a wrong key, a wrong cookie or a sandbox's header; with `X-Org-Id` or not.
 */
function credentials(world: World): fc.Arbitrary<Record<string, string>> {
  const who = fc.oneof(
    { weight: 10, arbitrary: fc.constant(world.user.headers) },
    { weight: 2, arbitrary: live(world.signed) },
    { weight: 1, arbitrary: fc.constant(world.member.headers) },
    { weight: 1, arbitrary: fc.constant({}) },
    { weight: 1, arbitrary: fc.constantFrom({ authorization: 'Bearer bsn_not-a-key' }, { cookie: 'bosun_session=x' }) },
    { weight: 1, arbitrary: fc.constant({ 'x-session-api-key': 'not-a-session-key' }) },
  );
  const org = fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, live(world.orgHeaders));
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

type Headers = Record<string, string>;

/**
 * Requests of the app server's operations whose path `select` keeps (path, query and body generated; the ids of
 * `pathValues` and `queryValues` mixed in), each signed with the headers `signed` gives for its path.
 */
async function generatedRequests(
  api: Api,
  values: Pick<FuzzContext, 'pathValues' | 'queryValues'>,
  select: (path: string) => boolean,
  signed: (path: string) => fc.Arbitrary<Headers>,
): Promise<{ requests: fc.Arbitrary<FuzzRequest>; operations: number }> {
  const document = (await api.call('/openapi.json')).body;
  const components = (document.components as { schemas: Record<string, Schema> }).schemas;
  const sanitize = sanitizer(remotes.server().url, `http://127.0.0.1:${await closedPort()}`);
  const context: FuzzContext = { components, ...values, sanitize };
  const operations = operationsOf(document).filter((operation) => select(operation.path));
  const requests = operations.map((operation) =>
    fc
      .tuple(requestFor(operation, context), signed(operation.path))
      .map(([request, headers]): FuzzRequest => ({ ...request, headers: { ...headers, ...request.headers } })),
  );
  return { requests: fc.oneof(...requests), operations: operations.length };
}

/**
 * Sends `runs` of `requests` to the server (see `fuzz`), replacing what they delete with `after`; then, with
 * `BOSUN_FUZZ_VERBOSE`, prints how many answers had each status. No unhandled rejection happened meanwhile.
 */
async function fuzzApp(api: Api, requests: fc.Arbitrary<FuzzRequest>, runs: number, after: FuzzRun['after']) {
  const statuses = await fuzz({
    url: api.url,
    requests,
    runs,
    seed: SEED,
    withinMs: ANSWER_WITHIN_MS,
    problem: (reply) => (upstreamFailure(reply) ? undefined : problemWith(withoutTrustSources(reply))),
    ...(after ? { after } : {}),
  });
  if (process.env.BOSUN_FUZZ_VERBOSE) console.log(SEED, JSON.stringify([...statuses].sort(([a], [b]) => a - b)));
  expect(unhandled).toEqual([]);
}

describeApi(
  'HTTP fuzzing from the OpenAPI document',
  (api) => {
    it(`answers ${RUNS} generated requests without a 5xx, a hang, or another error shape`, async () => {
      const world = await worldOf(api());
      // The directory lists the test marketplace's plugin (its id is a path value).
      const plugin = await api().call('/api/v1/plugin-directory/plugins/formatter', { as: world.user });
      expect(plugin.status, plugin.text).toBe(200);
      const { requests, operations } = await generatedRequests(
        api(),
        world,
        (path) => path.startsWith('/api/v1/') || path.startsWith('/api/shared-'),
        () => credentials(world),
      );
      expect(operations).toBeGreaterThan(60);
      // What a request deleted is replaced, so that later requests still reach existing ids.
      await fuzzApp(api(), requests, RUNS, async (request, reply) => {
        const path = request.url.split('?')[0] as string;
        if (reply.status < 300 && path.endsWith('/sign-out')) await world.signIn();
        const left = path.endsWith('/leave');
        if (reply.status >= 300 || (request.method !== 'DELETE' && !left)) return;
        for (const [name, values] of Object.entries(world.pathValues)) {
          for (const value of [...values]) if (request.url.includes(`/${value}`)) await world.replace(name, value);
        }
      });
    }, 600_000);
  },
  options,
);

/** The routes a sandbox posts to (with its session key) and those that reach its agent server. */
const REACHES_THE_SANDBOX = /\/webhooks\/|\/conversation\/|\/app-conversations\/\{|\/pending-messages$/;

describeApi(
  'HTTP fuzzing of what reaches a running sandbox',
  (api) => {
    it(`answers ${SANDBOX_RUNS} generated requests without a 5xx, a hang, or another error shape`, async () => {
      const user = await api().user();
      // One real sandbox (an agent server process), whose session key signs the webhooks.
      const sandbox = await api().sandboxes.start(LOCAL_SPEC, user.id);
      expect(sandbox.status).toBe('RUNNING');
      const conversation = async () => newConversation(api(), user.id, sandbox.id, await startOnAgent(api(), sandbox));
      const conversations = [await conversation(), await conversation()];
      // Each route mostly signed as it is called: the webhooks by the sandbox, the others by the user.
      const bySandbox = { 'x-session-api-key': sandbox.sessionApiKey as string };
      const signed = (path: string) => {
        const [own, other] = path.includes('/webhooks/') ? [bySandbox, user.headers] : [user.headers, bySandbox];
        return fc.oneof({ weight: 8, arbitrary: fc.constant(own) }, fc.constant(other), fc.constant({}));
      };
      const pathValues = { conversation_id: conversations, sandbox_id: [sandbox.id] };
      const { requests, operations } = await generatedRequests(
        api(),
        { pathValues },
        (path) => REACHES_THE_SANDBOX.test(path),
        signed,
      );
      expect(operations).toBeGreaterThan(10);
      await fuzzApp(api(), requests, SANDBOX_RUNS, async (request, reply) => {
        const deleted = conversations.findIndex((id) => request.url.includes(id));
        if (request.method === 'DELETE' && reply.status < 300 && deleted !== -1) {
          conversations[deleted] = await conversation();
        }
      });
    }, 600_000);
  },
  {
    get config() {
      const { sandbox_command: _real, sandbox_start_timeout: _timeout, ...config } = options.config;
      return config;
    },
    // A generated request that would start another sandbox mostly finds the limit used up.
    rateLimits: { sandbox_start: { limit: 2, windowMs: 60_000 } },
  },
);
