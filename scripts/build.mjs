// Bundles Bosun into one file that Node runs without a TypeScript loader: `npm start` runs the result.
// Third-party JavaScript is bundled too: loading one file instead of ~800 small modules is most of the
// server's start-up time. What cannot or need not be bundled stays in node_modules and loads as usual.
// The bundle is CommonJS (`bosun.cjs`) because Node compiles only scripts with a V8 code cache; its entry
// (`bosun.mjs`, from `bundle-entry.mjs`) runs it with the cache that `writeCodeCache` makes. Node's own compile
// cache (Node 22 and later) serves what loads from node_modules; for the bundle it is slower (it keeps only what
// compiling the script compiles, not the functions compiled later as they run: 270 ms of CPU to a ready agent
// server against 205 ms).
// Usage: node scripts/build.mjs [DIR]: the three files (and the source map) in DIR, by default packages/cli/dist.
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { writeCodeCache } from './code-cache.mjs';

const dir = process.argv[2] ?? 'packages/cli/dist';
const entry = join(dir, 'bosun.mjs');
const outfile = join(dir, 'bosun.cjs');

/** Packages loaded from node_modules at run time. */
const EXTERNAL = [
  // a native addon
  '@lydell/node-pty',
  // loaded on first use (a browser, an MCP server, a skill, PostgreSQL, Redis, S3, Kubernetes): their weight is paid only by
  // who needs them (bundled, an unused dynamic import would still be parsed at every start)
  'playwright-core',
  'pg',
  'pg-native',
  'ioredis',
  '@aws-sdk',
  '@smithy',
  '@modelcontextprotocol/sdk',
  '@kubernetes/client-node',
  'zod',
  'yaml',
  // read their own files at run time (static assets, worker transports, scripts injected into pages)
  '@fastify/swagger',
  '@fastify/swagger-ui',
  'pino',
  'thread-stream',
  'turndown',
  'turndown-plugin-gfm',
  '@mozilla/readability',
  // optional native accelerators ws tries to load
  'bufferutil',
  'utf-8-validate',
];
const isExternal = (path) => EXTERNAL.some((name) => path === name || path.startsWith(`${name}/`));

await build({
  entryPoints: ['packages/cli/src/run.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  // `import()` of a package left out becomes a `require` when it runs: V8 loses the dynamic import callback of
  // a script compiled from a code cache (Node 20), and every package left out has a CommonJS build.
  supported: { 'dynamic-import': false },
  // What the sources ask of `import.meta`: their own URL, which in the bundle is the bundle's.
  define: { 'import.meta.url': '__bosunBundleUrl' },
  sourcemap: 'linked',
  logLevel: 'warning',
  banner: { js: "var __bosunBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [
    {
      name: 'externals',
      setup(context) {
        context.onResolve({ filter: /^[^./]/ }, (args) =>
          isExternal(args.path) ? { path: args.path, external: true } : undefined,
        );
      },
    },
  ],
});

const sha256 = createHash('sha256')
  .update(await readFile(outfile))
  .digest('hex');
const entrySource = await readFile(new URL('./bundle-entry.mjs', import.meta.url), 'utf8');
await writeFile(entry, entrySource.replace('%BUNDLE_SHA256%', sha256));
await writeCodeCache(entry);
