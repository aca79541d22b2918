import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** This checkout. */
export const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** Where each flow's screenshot is kept (ignored by Git). */
export const ARTIFACTS = fileURLToPath(new URL('../../../../test-artifacts/web/', import.meta.url));
/** axe-core's browser build, injected into pages. */
export const AXE = createRequire(new URL('../../../../packages/web/package.json', import.meta.url)).resolve(
  'axe-core/axe.min.js',
);
/** Debian's Chromium: never a downloaded browser. */
export const CHROMIUM = '/usr/bin/chromium';
