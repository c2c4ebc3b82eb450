/**
 * Large-star / small-star on DuckDB (the loop of src/engines/sqlParts.ts)
 * over graphs where label propagation would need one round per edge: a path of
 * 200,000 edges with shuffled labels, a star of 100,000 members centred on the
 * largest label, and a forest of both with isolated edges. Each must end as one
 * star per component around its least node.
 */
import { describe, expect, it } from 'vitest';
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
  it('a path of 200,000 edges with shuffled labels converges to one component', async () => {
    // Node i of the path is labelled (i · 7919) mod 200,001, a permutation (7919 is prime and does not divide 200,001).
    const { rounds, summary } = await components(
      'SELECT (i * 7919) % 200001 AS a, ((i + 1) * 7919) % 200001 AS b FROM range(200000) t(i)',
    );
    expect(summary).toEqual({ nodes: 200001, components: 1, edges: 200000, multiParent: 0, rootNotLeast: 0 });
    expect(rounds).toBeLessThan(40);
  }, 120_000);

  it('a star of 100,000 members around the largest label converges to one component', async () => {
    const { summary } = await components('SELECT 1000000 AS a, i AS b FROM range(100000) t(i)');
    expect(summary).toEqual({ nodes: 100001, components: 1, edges: 100000, multiParent: 0, rootNotLeast: 0 });
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
});
