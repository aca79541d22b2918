#!/usr/bin/env node
// Bosun runs from its TypeScript sources: tsx compiles them on load (and caches the result).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2));
