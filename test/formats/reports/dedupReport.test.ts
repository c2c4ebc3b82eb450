// The printed summary shows every decision count the report has, and they add up: the candidate pairs
// decided (by the estimate, exact Jaccard or neither) sum to the candidates, the cluster check's to its
// comparisons, also when shingle sets passed --memory-limit and the estimate decided in their place (presigned
// rows: the first pass's sets are read one by one past the limit and never need it).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { runDedup, type DedupConfig } from '../../../src/pipeline/dedup/dedup.js';
import { runSign } from '../../../src/pipeline/sign/sign.js';
import { buildReport, formatSummary } from '../../../src/formats/reports/dedupReport.js';
import { tempDir } from '../../support/cli.js';
import { testDedupConfig } from '../../support/dedupConfig.js';

const dir = tempDir();
const corpus = join(dir, 'corpus.jsonl');
writeFileSync(corpus, gunzipSync(readFileSync('data/sample.jsonl.gz')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The numbers before "accepted", "rejected" and "undecided" in a line: the parts of a total. */
function decisionsIn(line: string): number {
  return [...line.matchAll(/([\d,]+) (accepted|rejected|undecided)/g)].reduce(
    (sum, m) => sum + Number(m[1].replaceAll(',', '')),
    0,
  );
}

const lineOf = (summary: string, label: string): string =>
  summary.split('\n').find((l) => l.trimStart().startsWith(label)) ?? '';

describe('the dedup summary', () => {
  for (const verify of ['exact', 'hybrid'] as const) {
    it(`adds up with --verify ${verify} past --memory-limit`, async () => {
      const base = testDedupConfig([corpus]);
      const signatures = join(dir, `signed-${verify}.npy`);
      await runSign({
        inputs: [corpus],
        read: base.read,
        params: base.params,
        backend: 'cpu',
        out: signatures,
        resume: false,
      });
      const config: DedupConfig = { ...base, signatures, verify, memoryLimitBytes: 2 ** 20, tempDirectory: dir };
      const outcome = await runDedup(config);
      const report = buildReport(config, outcome, outcome.timings);
      expect(report.verification.byEstimatePastMemoryLimit).toBeGreaterThan(0); // the case of the issue
      const summary = formatSummary(report, 'out.jsonl');
      const decided = lineOf(summary, 'decided');
      expect(decisionsIn(decided)).toBe(report.candidates.pairs);
      expect(decided).toContain(
        `rejected, ${report.verification.byEstimatePastMemoryLimit.toLocaleString('en-US')} of these because their shingle sets passed --memory-limit`,
      );
      const check = lineOf(summary, 'cluster check');
      expect(check).toMatch(
        new RegExp(`^ +cluster check +${report.clusterCheck.comparisons.toLocaleString('en-US')} comparisons? \\(`),
      );
      expect(decisionsIn(check)).toBe(report.clusterCheck.comparisons);
    });
  }

  it('writes one of a count in the singular', async () => {
    const config = testDedupConfig([corpus]);
    const outcome = await runDedup(config);
    const report = buildReport(config, outcome, outcome.timings);
    const one = {
      ...report,
      distinctTexts: 1,
      candidates: { ...report.candidates, pairs: 1 },
      clusterCheck: { ...report.clusterCheck, comparisons: 1 },
    };
    const summary = formatSummary(one, 'out.jsonl');
    expect(summary).toContain('(1 distinct non-empty text signed)');
    expect(lineOf(summary, 'candidates')).toMatch(/candidates +1 pair, /);
    expect(lineOf(summary, 'cluster check')).toMatch(/cluster check +1 comparison \(/);
  });
});
