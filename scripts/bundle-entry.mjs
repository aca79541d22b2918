// The entry of the bundle (`npm run build` writes it beside `bosun.cjs`, naming the code cache of that build).
// It compiles the bundle with V8's code cache that the build made by starting an agent server: parsing and
// compiling the bundle's functions was a third of every start's CPU time (sandboxes start one each). The cache is
// named after the bundle's SHA-256, so a cache of another build is never used (V8 itself checks only the length).
// Without a cache (or one V8 refuses), the bundle is compiled as usual. What loads from node_modules is served by
// Node's compile cache (Node 22 and later; `compile-cache/`, which the same start of the build fills).
// It also hands the bundle the validators the build compiled ahead of time (`bosun.cjs.<sha>.validators.cjs`; see
// packages/protocol/src/validation/precompiled.ts), or, in the build's run that writes them, asks it to record.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const BUNDLE_SHA256 = '%BUNDLE_SHA256%';
const bundle = fileURLToPath(new URL('./bosun.cjs', import.meta.url));
const cache = `${bundle}.${BUNDLE_SHA256.slice(0, 16)}.cache`;

Module.enableCompileCache?.(fileURLToPath(new URL('./compile-cache', import.meta.url)));
hideSqliteExperimentalWarning();
handOverValidators();
if (process.sourceMapsEnabled) {
  // Stack traces through the source map: Node applies it to what its own loader compiles, not to a vm.Script.
  createRequire(import.meta.url)(bundle);
} else {
  runCached();
}

function runCached() {
  let cachedData;
  try {
    cachedData = readFileSync(cache);
  } catch {
    // No cache: compiled as usual.
  }
  const script = new vm.Script(Module.wrap(readFileSync(bundle, 'utf8')), {
    filename: bundle,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (process.env.BOSUN_CODE_CACHE_REPORT === '1') {
    const state = cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'used';
    process.stderr.write(`code cache: ${state}\n`);
  }
  if (process.env.BOSUN_CODE_CACHE_WRITE === '1') {
    // The build's run: what this process compiled, written when it ends.
    process.on('exit', () => {
      const temporary = `${cache}.${process.pid}`;
      writeFileSync(temporary, script.createCachedData());
      renameSync(temporary, cache);
    });
  }
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
}

function handOverValidators() {
  // Named after the bundle, as the code cache is: validators of another build's schemas are never used.
  const file = `${bundle}.${BUNDLE_SHA256.slice(0, 16)}.validators.cjs`;
  const validators = { counts: { precompiled: 0, compiled: 0 } };
  globalThis[Symbol.for('bosun.build-validators')] = validators;
  if (process.env.BOSUN_VALIDATORS_WRITE === '1') {
    validators.recording = true;
    process.on('exit', () => {
      const temporary = `${file}.${process.pid}`;
      writeFileSync(temporary, validators.record?.() ?? '');
      renameSync(temporary, file);
    });
    return;
  }
  try {
    validators.chunks = createRequire(import.meta.url)(file).chunks;
  } catch {
    // None written (or unreadable): every validator is compiled as it is first used.
  }
  if (process.env.BOSUN_VALIDATORS_REPORT === '1') {
    process.on('exit', () => {
      const { precompiled, compiled } = validators.counts;
      process.stderr.write(`validators: ${precompiled} precompiled, ${compiled} compiled\n`);
    });
  }
}

/** Node 22 calls its SQLite, which Bosun stores in, experimental at every start (Node 24 does not): not for users. */
function hideSqliteExperimentalWarning() {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (warning, ...rest) {
    const message = typeof warning === 'string' ? warning : warning?.message;
    if (typeof message === 'string' && message.startsWith('SQLite is an experimental feature')) return;
    return emitWarning.call(this, warning, ...rest);
  };
}
