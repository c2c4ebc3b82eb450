import { DuckDBInstance } from '@duckdb/node-api';
import { scoredSteps } from './dist/src/engines/scoredSql.js';
const i = await DuckDBInstance.create(':memory:'); const c = await i.connect();
await c.run("SET threads=2"); await c.run("SET memory_limit='8847MB'");
await c.run("CREATE VIEW shards AS SELECT * FROM read_parquet(['/tmp/h38v/s1.parquet','/tmp/h38v/s2.parquet'])");
await c.run("CREATE TABLE candidates AS SELECT i AS a, i + 1 AS b FROM range(11800000) t(i)");
const steps = scoredSteps(128, {acceptFrom: 100, rejectUpTo: 50, threshold: 0.8}, [0, 3e6, 2**32, 2**32+3e6, 2**33]);
for (const s of steps.slice(0, 4)) {
  const r = await c.runAndReadAll(`EXPLAIN ${s.sql}`);
  const text = r.getRows().map((row) => row[1]).join('\n');
  // the join conditions and the sides' cardinalities
  console.log('==', s.name); console.log(text.split('\n').filter(l => /HASH_JOIN|Conditions|= |~|READ_PARQUET|SEQ_SCAN|FILTER|Filters/.test(l) && !/slot_|CASE/.test(l)).join('\n'));
}
