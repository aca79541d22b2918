import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts', 'deploy/**/*.test.ts'],
    // Generous: a test waits on processes it started, which a machine running two suites at once slows severalfold;
    // a hang still fails, two minutes in.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Vitest's default is one file at a time on 2 cores (CPUs - 1); most files wait on processes they started
    // (servers, sandboxes, Git, Chromium), so two at a time use the machine rather than each other's idle time.
    maxWorkers: 2,
    // Files of a worker share its modules: each file evaluating the app server's graph anew cost 320 of the suite's
    // 837 s (21 s shared). No test mocks modules or leaves global state behind; each closes what it started.
    isolate: false,
    // Fail loudly instead of passing when a filter or a broken glob selects nothing.
    passWithNoTests: false,
    reporters: ['default', './test/support/summary-reporter.ts'],
    // Bosun bundled once for the app server tests' sandboxes (seconds saved at each sandbox start).
    globalSetup: ['./test/support/sandbox-bundle-setup.ts'],
  },
});
