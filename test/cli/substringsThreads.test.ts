/**
 * Why the tab's span report said `search.rounds` 1 where the CLI said 2 for the same input (issue 40, item 17): each
 * thread of the CLI's search takes a round at least (a corpus of 4 MiB or more is searched on every core). The report
 * says so in `search.threads`, and with the same threads every count is the same, rounds included.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';

describe('substrings --report: rounds and threads', () => {
  it('two threads take two rounds where one takes one; the other counts agree', async () => {
    const dir = tempDir();
    const corpus = join(dir, 'corpus.jsonl');
    const lines = Array.from({ length: 9000 }, (_, i) =>
      JSON.stringify({ id: `d${i}`, text: `${'lorem ipsum dolor sit amet '.repeat(18)} number ${i}` }),
    );
    writeFileSync(corpus, `${lines.join('\n')}\n`); // past 4 MiB: searched on worker threads
    const reports = [];
    for (const threads of ['1', '2']) {
      const report = join(dir, `r${threads}.json`);
      const r = await runCli(['substrings', corpus, '--report', report, '--threads', threads, '--min-length', '50']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`windows in ${threads === '1' ? '1 round on 1 thread' : '2 rounds on 2 threads'},`);
      reports.push(JSON.parse(readFileSync(report, 'utf8')).search);
    }
    expect(reports[0]).toMatchObject({ rounds: 1, threads: 1 });
    expect(reports[1]).toMatchObject({ rounds: 2, threads: 2 });
    const { rounds: _, threads: __, ...one } = reports[0];
    const { rounds: ___, threads: ____, ...two } = reports[1];
    expect(two).toEqual(one);
  }, 120_000);
});
