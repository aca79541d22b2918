// Builds the web application (packages/web, with Vite) into packages/web/dist, which the app server serves at `/`.
// Skipped when the build is newer than every source it is made of (`npm start` then starts at once); --force builds anyway.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const web = join(root, 'packages', 'web');
const INPUTS = [
  join(web, 'src'),
  join(web, 'index.html'),
  join(web, 'vite.config.ts'),
  join(web, 'package.json'),
  join(root, 'packages', 'client', 'src'),
];

/** The newest modification time under `path` (0 when it does not exist). */
function newest(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), stat.mtimeMs);
}

const built = newest(join(web, 'dist', 'index.html'));
if (!process.argv.includes('--force') && built > 0 && INPUTS.every((input) => newest(input) < built)) process.exit(0);

const { build } = await import('vite');
await build({ root: web, configFile: join(web, 'vite.config.ts'), logLevel: 'warn' });

// Compressed once here, served as they are (`@fastify/static`'s preCompressed): a browser asking for brotli or gzip
// gets about a quarter of the bytes, and the server spends nothing per request.
const { readdir, readFile, writeFile } = await import('node:fs/promises');
const { brotliCompressSync, gzipSync, constants } = await import('node:zlib');
const assets = join(web, 'dist', 'assets');
for (const name of await readdir(assets)) {
  if (!/\.(?:js|css|svg|json)$/.test(name)) continue;
  const bytes = await readFile(join(assets, name));
  await writeFile(
    join(assets, `${name}.br`),
    brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  await writeFile(join(assets, `${name}.gz`), gzipSync(bytes, { level: 9 }));
}
