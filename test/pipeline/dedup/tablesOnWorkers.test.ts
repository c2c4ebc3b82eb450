// The clusters and pairs tables made on stage workers (tablesOnWorkers.ts) are the bytes this thread writes: CSV,
// JSON Lines and gzip, ids that need quoting or escaping, and ranges past one request's rows.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeStageWorkers } from '../../../src/dedup/node/stageWorkers.js';
import type { TableRowsPool } from '../../../src/dedup/node/stageWorkers.js';
import { pairColumns } from '../../../src/dedup/outputRows.js';
import { openTable } from '../../../src/formats/openTable.js';
import { runDedup } from '../../../src/pipeline/dedup/dedup.js';
import { pairRequests, takesFormattedRows, writeRowsOnWorkers } from '../../../src/pipeline/dedup/tablesOnWorkers.js';
import { writeDedupOutputs, type DedupOutputPaths } from '../../../src/pipeline/dedup/writeOutputs.js';
import { SILENT_HOOKS } from '../../../src/pipeline/shared/config.js';
import { tempDir } from '../../support/cli.js';
import { testDedupConfig } from '../../support/dedupConfig.js';

const dir = tempDir();
const lines = gunzipSync(readFileSync('data/sample.jsonl.gz')).toString('utf8').split('\n').filter(Boolean);
// Ids that CSV must quote and JSON must escape, and many documents: 70,000 rows pass one request's 65,536.
const quirks = ['a,b', 'say "hi"', 'two\nlines', 'carriage\r', 'é', '😀', 'plain'];
const documents = Array.from({ length: 70_000 }, (_, d) => {
  const { text } = JSON.parse(lines[d % lines.length]) as { text: string };
  return JSON.stringify({ id: `${quirks[d % quirks.length]}-${d}`, text });
});
const corpus = join(dir, 'corpus.jsonl');
writeFileSync(corpus, documents.join('\n') + '\n');

const pool = nodeStageWorkers(3);
afterAll(() => pool.destroy());

describe('dedup tables made on stage workers', async () => {
  const outcome = await runDedup({ ...testDedupConfig([corpus]), threads: 1 });
  const write = async (name: string, tableWorkers?: TableRowsPool) => {
    const paths: DedupOutputPaths = {
      clusters: join(dir, `${name}-clusters${suffix}`),
      pairs: join(dir, `${name}-pairs${suffix}`),
    };
    const progress = SILENT_HOOKS.stage('writing', 0, 'bytes');
    await writeDedupOutputs(outcome, paths, testDedupConfig([corpus]).read, progress, { tableWorkers });
    return [readFileSync(paths.clusters!), readFileSync(paths.pairs!)];
  };
  let suffix = '';
  for (const format of ['.csv', '.jsonl', '.csv.gz']) {
    it(`gives this thread's bytes: ${format}`, async () => {
      suffix = format;
      let requests = 0;
      const counted: TableRowsPool = {
        size: pool.tables.size,
        request: (worker, request) => {
          requests++;
          return pool.tables.request(worker, request);
        },
      };
      const [clustersHere, pairsHere] = await write('here');
      const [clustersThere, pairsThere] = await write('there', counted);
      expect(requests).toBe(3); // two ranges of documents (70,000 rows), one of pairs: the workers made every row
      expect(clustersThere.equals(clustersHere)).toBe(true);
      expect(pairsThere.equals(pairsHere)).toBe(true);
      const text = format.endsWith('.gz') ? gunzipSync(clustersHere).toString() : clustersHere.toString();
      expect(text).toContain(format === '.jsonl' ? '"id":"two\\nlines-2"' : '"two\nlines-2"');
    });
  }

  it('gives the same pairs table in ranges of any size, in order', async () => {
    suffix = '.csv';
    const [, pairsHere] = await write('here');
    const { records, table, verified } = outcome;
    expect(verified.a.length).toBeGreaterThan(100);
    const path = join(dir, 'ranges-pairs.csv');
    const file = await openTable(path, pairColumns(verified));
    if (!takesFormattedRows(file)) throw new Error('a CSV table takes formatted rows');
    const ranges = pairRequests(file.format, records!.sharedIds()!, table.firstDocuments(), verified, 7);
    await writeRowsOnWorkers(pool.tables, file, ranges);
    await file.commit();
    expect(readFileSync(path).equals(pairsHere)).toBe(true);
  });
});
