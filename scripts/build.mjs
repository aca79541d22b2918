// Bundles Bosun into one ESM file that Node runs without a TypeScript loader: `npm start` runs the result.
// Third-party JavaScript is bundled too: loading one file instead of ~800 small modules is most of the
// server's start-up time. What cannot or need not be bundled stays in node_modules and loads as usual.
import { build } from 'esbuild';

const outfile = process.argv[2] ?? 'packages/cli/dist/bosun.mjs';

/** Packages loaded from node_modules at run time. */
const EXTERNAL = [
  // native addons
  'better-sqlite3',
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
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  // Bundled CommonJS modules that `require` an external package need a `require` in an ES module.
  banner: {
    js: "import { createRequire as __bosunRequire } from 'node:module'; const require = __bosunRequire(import.meta.url);",
  },
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
