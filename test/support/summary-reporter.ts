import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run with each test skipped on purpose and why (`context.skip(reason)`; tests a filter left out are not
 * listed), then one plain line, `N passed, N failed, N skipped`, that CI logs are read for.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const reasons: string[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state === 'passed') counts.passed++;
        else if (result.state === 'failed') counts.failed++;
        else counts.skipped++;
        if (result.state === 'skipped' && result.note) {
          reasons.push(`skipped: ${relative(process.cwd(), module.moduleId)} > ${test.fullName}: ${result.note}`);
        }
      }
      if (module.state() === 'failed' && !module.ok()) counts.failed += module.children.size === 0 ? 1 : 0;
    }
    const listed = reasons.length > 0 ? `\n${reasons.join('\n')}\n` : '';
    process.stdout.write(`${listed}\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}
