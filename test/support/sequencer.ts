/**
 * Vitest's file order (vitest.config.ts): the files that take longest start first, so
 * that neither of CI's two workers begins a minute-long file near the end while the
 * other sits idle. Vitest orders by the durations it cached, but CI starts from a fresh
 * checkout with no cache (then it orders by file size, which puts the minute-long
 * files anywhere); these, measured in a full run (2 workers, 2 cores), go first in
 * this order, then the rest as Vitest orders them. A file missing here only starts later.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const LONGEST_FIRST: readonly string[] = [
  'test/scripts/device.test.ts',
  'test/engines/sparkStandalone.test.ts',
  'test/engines/clusterSimhash.test.ts',
  'test/engines/cluster.test.ts',
  'test/docs/commands.test.ts',
  'test/engines/clusterSpark.test.ts',
  'test/web/browser.test.ts',
  'test/cli/index.test.ts',
  'test/signatures/datasketch.test.ts',
  'test/web/indexTab.test.ts',
  'test/cli/dedup.test.ts',
  'test/cli/idfWeights.test.ts',
];

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const i = LONGEST_FIRST.indexOf(relative(spec.project.config.root, spec.moduleId));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    // Array.prototype.sort is stable: the rest keep Vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
