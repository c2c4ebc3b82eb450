/**
 * Large-star / small-star on DuckDB (the loop of src/engines/sqlParts.ts; the
 * Spark job runs the same SQL, and clusterSpark.test.ts checks that its
 * rounds equal DuckDB's) over graphs where label propagation would need one
 * round per edge: a chain of 100,000 documents in order, one of 20,000 with
 * shuffled labels, stars of 100,000 around the largest and the least label, and a
 * forest of paths and isolated edges. Each must end as one star per component
 * around its least node, the chains in at most ⌈log2 n⌉ + 2 rounds (Kiveris et
 * al. prove O(log² n); 10, 14 and 17 rounds are measured at 10³, 10⁴ and 10⁵).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, runCliHere } from '../support/cli.js';
import { openDuckDb, runOps } from '../../src/engines/duckdb.js';
import { starLoop } from '../../src/engines/sqlParts.js';

/** Loads `edgesSql` (columns a, b; any orientation) as the edges table, converges, returns the rounds and the component of every node. */
async function components(edgesSql: string): Promise<{ rounds: number; summary: Record<string, number> }> {
  const { connection, close } = await openDuckDb({ threads: 2 });
  try {
    await connection.run(`CREATE TABLE input AS ${edgesSql}`);
    await connection.run(
      'CREATE TABLE edges AS SELECT DISTINCT GREATEST(a, b) AS src, LEAST(a, b) AS dst FROM input WHERE a <> b',
    );
    const counted: Record<string, number> = {};
    await runOps(connection, [starLoop('', 'components')], { maxRounds: 100 }, counted);
    const rounds = counted.components;
    const rows = await connection.runAndReadAll(`
      WITH nodes AS (SELECT a AS node FROM input UNION SELECT b FROM input),
           labelled AS (SELECT n.node, COALESCE(e.dst, n.node) AS root FROM nodes n LEFT JOIN edges e ON e.src = n.node)
      SELECT (SELECT COUNT(*) FROM nodes) AS nodes,
             (SELECT COUNT(DISTINCT root) FROM labelled) AS components,
             (SELECT COUNT(*) FROM edges) AS edges,
             (SELECT COUNT(*) FROM (SELECT src FROM edges GROUP BY src HAVING COUNT(*) > 1) x) AS multiParent,
             (SELECT COUNT(*) FROM labelled l JOIN (SELECT root, MIN(node) AS least FROM labelled GROUP BY root) m ON l.root = m.root WHERE m.least <> l.root) AS rootNotLeast`);
    const summary = Object.fromEntries(
      Object.entries((await rows.getRowObjectsJS())[0]).map(([k, v]) => [k, Number(v)]),
    );
    return { rounds, summary };
  } finally {
    close();
  }
}

describe('connected components by large-star / small-star', () => {
  it('a chain of 100,000 documents in order and one of 20,000 shuffled converge in at most ⌈log2 n⌉ + 2 rounds', async () => {
    // Node i of the first chain is i; of the second, 200,000 + (i · 7919) mod 20,001, a permutation (7919 is prime
    // and does not divide 20,001). Each node is linked to the next.
    const { rounds, summary } = await components(`
      SELECT i AS a, i + 1 AS b FROM range(100000) t(i)
      UNION ALL SELECT 200000 + (i * 7919) % 20001 AS a, 200000 + ((i + 1) * 7919) % 20001 AS b FROM range(20000) t(i)`);
    expect(summary).toEqual({ nodes: 120002, components: 2, edges: 120000, multiParent: 0, rootNotLeast: 0 });
    expect(rounds).toBeGreaterThanOrEqual(2);
    expect(rounds).toBeLessThanOrEqual(Math.ceil(Math.log2(100001)) + 2);
  }, 120_000);

  it('stars of 100,000 members around the largest and around the least label converge in one round', async () => {
    const { rounds, summary } = await components(`
      SELECT 1000000 AS a, i AS b FROM range(100000) t(i)
      UNION ALL SELECT 2000000 AS a, 2000001 + i AS b FROM range(100000) t(i)`);
    expect(summary).toEqual({ nodes: 200002, components: 2, edges: 200000, multiParent: 0, rootNotLeast: 0 });
    expect(rounds).toBe(1);
  }, 120_000);

  it('separate paths and pairs stay separate components', async () => {
    // 100 paths of 50 nodes (labels interleaved across paths) and 1,000 disjoint pairs.
    const { summary } = await components(`
      SELECT p + 100 * j AS a, p + 100 * (j + 1) AS b FROM range(100) x(p), range(49) y(j)
      UNION ALL SELECT 100000 + 2 * i AS a, 100001 + 2 * i AS b FROM range(1000) t(i)`);
    expect(summary).toEqual({
      nodes: 5000 + 2000,
      components: 1100,
      edges: 5000 - 100 + 1000,
      multiParent: 0,
      rootNotLeast: 0,
    });
  }, 120_000);

  it('end to end: a chain of 400 documents in input order, one cluster as dedup makes it, its rounds reported', async () => {
    // Document i is words 3i … 3i + 119 of one random text: each a near-duplicate of the next, not of the 40th on.
    let seed = 11;
    const word = (): string => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return `w${seed % 50000}`;
    };
    const text = Array.from({ length: 3 * 400 + 120 }, word);
    const dir = tempDir();
    const input = join(dir, 'chain.jsonl');
    const lines = Array.from({ length: 400 }, (_, i) =>
      JSON.stringify({ id: `d${i}`, text: text.slice(3 * i, 3 * i + 120).join(' ') }),
    );
    writeFileSync(input, lines.join('\n') + '\n');
    const shard = join(dir, 'chain.parquet');
    const ok = async (args: string[]) => {
      const result = await runCliHere(args);
      expect(result.code, result.stderr).toBe(0);
      return result;
    };
    await ok(['sign', input, '--shard', '1/1', '-o', shard, '-q']);
    const [want, got, report] = [join(dir, 'dedup.csv'), join(dir, 'cluster.csv'), join(dir, 'report.json')];
    await ok(['dedup', input, '--cluster-check', 'none', '--clusters', want, '-q']);
    const run = await ok(['cluster', shard, '--cluster-check', 'none', '--clusters', got, '--report', report]);
    expect(readFileSync(got, 'utf8')).toBe(readFileSync(want, 'utf8'));
    expect(
      new Set(
        readFileSync(got, 'utf8')
          .trim()
          .split('\n')
          .slice(1)
          .map((l) => l.split(',')[1]),
      ).size,
    ).toBe(1);
    const { components, peakMiB } = JSON.parse(readFileSync(report, 'utf8'));
    expect(components.rounds).toBeGreaterThanOrEqual(4);
    expect(components.rounds).toBeLessThanOrEqual(Math.ceil(Math.log2(400)) + 2);
    expect(run.stderr).toContain(`components round ${components.rounds}: 0 edges still point at a non-root`);
    expect(run.stdout).toMatch(new RegExp(`components +${components.rounds} rounds of large-star`));
    if (process.platform === 'linux')
      expect(Object.keys(peakMiB)).toEqual(['setup', 'components', 'finish', 'inspect']);
  }, 120_000);
});
