#!/usr/bin/env node
// Bosun runs from its TypeScript sources: tsx compiles them on load (and caches the result).
// `npm start` runs the bundle that `npm run build` makes instead, which starts faster.
import { register } from 'tsx/esm/api';

register();
await import('../src/run.ts');
