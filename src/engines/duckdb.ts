/**
 * The cluster plan on DuckDB, embedded (`@duckdb/node-api`, an optional
 * dependency with prebuilt binaries): every step becomes a table, so DuckDB
 * works out of core under `memory_limit`, spilling to `temp_directory`.
 */
import { removeTemporary, temporaryDirectory } from '../formats/files/temporaries.js';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { isLoop, type ClusterPlan, type PlanCheck, type PlanLoop, type PlanOp, type SqlStep } from './clusterSql.js';
import {
  checkFailed,
  bufferLimit,
  DEFAULT_MAX_ROUNDS,
  memoryLimitOf,
  EngineUnavailableError,
  writeRowsParquet,
  type EngineOptions,
  type EngineRun,
  type InspectRow,
  type Inspected,
} from './engine.js';
import type { InspectPlan } from './inspectSql.js';
import { doubleColumns, streamRows } from './duckdbColumns.js';
import { StepLog } from './stepPeak.js';
import type { SqlPairRule } from './sqlParts.js';
import type { TextPairRows } from './textPairs.js';

export const DUCKDB_INSTALL_HINT =
  'npm install @duckdb/node-api (an optional dependency of gpudedup; prebuilt for Linux, macOS and Windows, no ' +
  'compiler needed)';

async function loadDuckDb(): Promise<typeof import('@duckdb/node-api')> {
  try {
    return await import('@duckdb/node-api');
  } catch (error) {
    throw new EngineUnavailableError(
      `--engine duckdb needs DuckDB, which did not load (${(error as Error).message.split('\n')[0]}): ` +
        `${DUCKDB_INSTALL_HINT}`,
    );
  }
}

/** A SQL string literal. */
export function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * A DuckDB with the engine options applied, its database a scratch file in
 * the temporary directory (deleted on close): tables of a file database leave
 * memory for disk under memory_limit, where an in-memory one runs out.
 */
export async function openDuckDb(
  options: EngineOptions = {},
): Promise<{ connection: DuckDBConnection; close: () => void }> {
  const duckdb = await loadDuckDb();
  if (options.tempDirectory !== undefined) await mkdir(options.tempDirectory, { recursive: true });
  const scratch = temporaryDirectory(options.tempDirectory ?? tmpdir(), 'gpudedup-duckdb-');
  const instance: DuckDBInstance = await duckdb.DuckDBInstance.create(join(scratch, 'cluster.duckdb'));
  const connection = await instance.connect();
  const close = (): void => {
    connection.closeSync();
    instance.closeSync();
    removeTemporary(scratch);
  };
  try {
    const limit = bufferLimit(memoryLimitOf(options));
    await connection.run(`SET memory_limit = ${sqlString(limit)}`);
    if (options.tempDirectory !== undefined)
      await connection.run(`SET temp_directory = ${sqlString(options.tempDirectory)}`);
    if (options.threads !== undefined) await connection.run(`SET threads = ${Math.floor(options.threads)}`);
    // Row order is set by ORDER BY where it matters; without this DuckDB keeps insertion order at a memory cost.
    await connection.run('SET preserve_insertion_order = false');
    // The plan measures and explodes lists with Spark's size() and explode(); DuckDB spells them array_length and
    // unnest (sqlParts.ts).
    await connection.run('CREATE OR REPLACE TEMP MACRO size(l) AS array_length(l)');
    await connection.run('CREATE OR REPLACE TEMP MACRO explode(l) AS unnest(l)');
  } catch (error) {
    close();
    throw error;
  }
  return { connection, close };
}

export async function runDuckDb(
  plan: ClusterPlan,
  shardPaths: readonly string[],
  options: EngineOptions = {},
): Promise<EngineRun> {
  const { connection, close } = await openDuckDb(options);
  try {
    await connection.run(`CREATE VIEW shards AS SELECT * FROM read_parquet([${shardPaths.map(sqlString).join(', ')}])`);
    const reference = options.reference ?? [];
    if (reference.length > 0)
      await connection.run(
        `CREATE VIEW reference AS SELECT * FROM read_parquet([${reference.map(sqlString).join(', ')}])`,
      );
    await runChecks(connection, plan.checks);
    // Each phase's and each step's seconds, CPU and peak (the report's `steps`).
    const log = options.steps ?? new StepLog();
    const logged = { ...options, steps: log };
    const timed = <T>(name: string, work: () => Promise<T>): Promise<T> => log.inPhase(name, work);
    await timed('setup', () => runSteps(connection, plan.setup, logged));
    const [stats] = await rowsOf(connection, plan.stats);
    const rounds: Record<string, number> = {};
    await timed('components', () => runOps(connection, plan.program, logged, rounds));
    await timed('finish', () => runSteps(connection, plan.finish, logged));
    const inspected =
      plan.inspect === undefined
        ? undefined
        : await timed('inspect', () => runInspect(connection, plan.inspect!, logged));
    return {
      inspected,
      stats: {
        candidates: Number(stats.candidates),
        verified: Number(stats.verified),
        largestBucket: Number(stats.largest_bucket),
        exactPairs: Number(stats.exact_pairs),
        contaminatedGroups: Number(stats.contaminated_groups),
        rounds: rounds.components ?? 0,
        checkRounds: rounds.check ?? 0,
        timings: log.timings,
        peaks: log.peaks,
        steps: log.list(),
      },
      rows: () => streamRows(connection),
      writeParquet: (path) => writeRowsParquet(path, streamRows(connection)),
      close: async () => close(),
    };
  } catch (error) {
    close();
    throw error;
  }
}

/** A query's rows, BIGINT as number (counts and positions stay below 2^53). */
async function rowsOf(connection: DuckDBConnection, sql: string): Promise<InspectRow[]> {
  const rows = await (await connection.runAndReadAll(sql)).getRowObjectsJS();
  return rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([key, value]) => [
        key,
        typeof value === 'bigint' ? Number(value) : (value as number | string | null),
      ]),
    ),
  );
}

async function runChecks(connection: DuckDBConnection, checks: readonly PlanCheck[]): Promise<void> {
  for (const check of checks) {
    const [row] = await rowsOf(connection, check.sql);
    if (Number(row.n) > 0) throw checkFailed(check, Number(row.n), row.example);
  }
}

async function runInspect(connection: DuckDBConnection, plan: InspectPlan, options: EngineOptions): Promise<Inspected> {
  await runSteps(connection, plan.steps, options);
  const inspected: Record<string, InspectRow[]> = {};
  for (const query of plan.queries) inspected[query.name] = await rowsOf(connection, query.sql);
  return inspected;
}

export async function runSteps(
  connection: DuckDBConnection,
  steps: readonly SqlStep[],
  options: EngineOptions = {},
): Promise<void> {
  for (const step of steps) {
    try {
      await logStep(options, step.name, async () => {
        if (step.host !== undefined) await runHostStep(connection, step, step.host, options);
        else if (step.asWritten === true) await runAsWritten(connection, step);
        else
          await connection.run(
            `CREATE OR REPLACE ${step.view === true ? 'VIEW' : 'TABLE'} ${step.name} AS ${step.sql}`,
          );
      });
    } catch (error) {
      throw new Error(`DuckDB, step ${step.name}: ${(error as Error).message.split('\n')[0]}`, { cause: error });
    }
  }
}

/** A table step with its joins as written: each builds its hash table on its right side (SqlStep.asWritten). */
async function runAsWritten(connection: DuckDBConnection, step: SqlStep): Promise<void> {
  await connection.run(`SET disabled_optimizers = 'join_order,build_side_probe_side'`);
  try {
    await connection.run(`CREATE OR REPLACE TABLE ${step.name} AS ${step.sql}`);
  } finally {
    await connection.run('RESET disabled_optimizers');
  }
}

/** `work` as a step of `options.steps` where there is one. */
const logStep = <T>(options: EngineOptions, name: string, work: () => Promise<T>): Promise<T> =>
  options.steps === undefined ? work() : options.steps.step(name, work);

/**
 * A step decided on the host (exactPassSql.ts): its pairs out, the ones that pass back in as table `step.name` (l, r).
 * The host's sets take their room from DuckDB's memory_limit: all of `hostBytes` while they are made, then what they
 * hold.
 */
async function runHostStep(
  connection: DuckDBConnection,
  step: SqlStep,
  rule: SqlPairRule,
  options: EngineOptions,
): Promise<void> {
  const decide = options.decideByText;
  if (decide === undefined) throw new Error('internal: a host step without the texts to decide it');
  // Its parts: the pairs `out` of DuckDB, decided on the `host` (its sets and decisions: textExact.ts), and back `in`.
  const pairs = (await logStep(options, 'out', () =>
    doubleColumns(connection, step.sql, HOST_COLUMNS),
  )) as unknown as TextPairRows;
  const limit = memoryLimitOf(options);
  const engineLimit = async (hostBytes: number | undefined): Promise<void> => {
    if (hostBytes !== undefined) await connection.run(`SET memory_limit = ${sqlString(bufferLimit(limit, hostBytes))}`);
  };
  await engineLimit(options.hostBytes);
  const passed = await logStep(options, 'host', () => decide(pairs, rule));
  await engineLimit(options.hostHeld?.());
  await logStep(options, 'in', () => appendPairs(connection, step.name, pairs, passed));
}

/** The pairs that passed as table `name` (l, r). */
async function appendPairs(
  connection: DuckDBConnection,
  name: string,
  pairs: TextPairRows,
  passed: Uint8Array,
): Promise<void> {
  await connection.run(`CREATE OR REPLACE TABLE ${name} (l BIGINT, r BIGINT)`);
  const appender = await connection.createAppender(name);
  for (let i = 0; i < passed.length; i++) {
    if (passed[i] === 0) continue;
    appender.appendBigInt(BigInt(pairs.l[i]));
    appender.appendBigInt(BigInt(pairs.r[i]));
    appender.endRow();
  }
  appender.closeSync();
}

const HOST_COLUMNS = ['l', 'r', 'xf', 'xs', 'xb', 'yf', 'ys', 'yb'];

/**
 * Runs ops in order, each loop until its `until` gives 0; counts each loop's rounds in `rounds` (by loop name, summed).
 */
export async function runOps(
  connection: DuckDBConnection,
  ops: readonly PlanOp[],
  options: EngineOptions,
  rounds: Record<string, number> = {},
): Promise<void> {
  for (const op of ops) {
    if (isLoop(op)) await runLoop(connection, op, options, rounds);
    else await runSteps(connection, [op], options);
  }
}

async function runLoop(
  connection: DuckDBConnection,
  loop: PlanLoop,
  options: EngineOptions,
  rounds: Record<string, number>,
): Promise<void> {
  const maxRounds = options.maxRounds ?? DEFAULT_MAX_ROUNDS;
  for (let round = 1; round <= maxRounds; round++) {
    await runOps(connection, loop.body, options, rounds);
    rounds[loop.loop] = (rounds[loop.loop] ?? 0) + 1;
    const [{ n: remaining }] = await logStep(options, `${loop.loop} (until)`, () => rowsOf(connection, loop.until));
    options.onRound?.(round, Number(remaining), loop.loop);
    if (Number(remaining) === 0) return;
  }
  throw new Error(`${loop.loop} did not converge in ${maxRounds} rounds`);
}
