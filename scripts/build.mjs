// Bundles Bosun's own code (the @bosun/* packages) into one ESM file that Node runs without a TypeScript
// loader; third-party packages stay in node_modules and load as usual. `npm start` runs the result.
import { build } from 'esbuild';

const ours = /^@bosun\//;

await build({
  entryPoints: ['packages/cli/src/run.ts'],
  outfile: 'packages/cli/dist/bosun.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [
    {
      name: 'third-party-external',
      setup(context) {
        context.onResolve({ filter: /^[^./]/ }, (args) =>
          ours.test(args.path) || args.path.startsWith('node:') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
