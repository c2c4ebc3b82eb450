/**
 * `gpudedup cluster SHARD...`: joins the shards of `gpudedup sign --shard` on
 * an engine (DuckDB in process, or Spark) and writes every document's cluster
 * and a removal list. Candidate pairs are verified and clusters checked as
 * `gpudedup dedup` does (--verify, --cluster-check, --chain-delta,
 * --max-representatives, --estimate-error, with dedup's defaults), in the SQL
 * of src/engines, so the clusters equal dedup's with the same parameters,
 * numbered the same way: the files compare byte for byte.
 */
import type { ShardMeta } from '../../formats/shards/shardFile.js';
import { checkShardSet, readShardMeta } from '../../formats/shards/shardSet.js';
import { rangeOffsets } from '../../formats/shards/shardRanges.js';
import { clusterPlan, type ClusterPlan, type ClusterSqlOptions } from '../../engines/clusterSql.js';
import { hasMargin } from '../../engines/sqlParts.js';
import { sqlPairRule } from './sqlPairRule.js';
import { schemeOf } from '../../signatures/params.js';
import { checkTextRanges, textDecider } from './textExact.js';
import { engineJoins } from './scoredCuts.js';
import { defaultOf, type OptionValues, type VerificationOptions, type VerifyMode } from '../../options.js';
import type { SlotBits } from '../../bands/signatureMatrix.js';

export { sqlPairRule };
import { describeKeepPolicy } from '../../text/keepPolicy.js';
import { referenceAnchors } from '../../bands/candidates.js';
import { maxHammingOfBands } from '../../bands/simhashBands.js';
import { runDuckDb } from '../../engines/duckdb.js';
import { hostSetBytes, memoryLimitOf, type EngineOptions, type EngineRun } from '../../engines/engine.js';
import type { EngineStats } from '../../engines/engine.js';
import { inspectPlan } from '../../engines/inspectSql.js';
import type { ClusterReport } from '../../engines/clusterReport.js';
import { inspectOptionsFor, readInspection, wantsInspection, type InspectSettings } from './clusterInspect.js';
import { writeInspection } from './inspectionFiles.js';
import { runSpark } from '../../engines/spark.js';
import { checkOutputs } from '../shared/outputChecks.js';
import { runThreads } from '../shared/config.js';
import { writeClusterOutputs } from './clusterOutputs.js';

export type EngineName = 'duckdb' | 'spark';
export const ENGINES: readonly EngineName[] = ['duckdb', 'spark'];

/**
 * As in dedup (src/options.ts: types and defaults); the threshold's default is the one the shards' bands were chosen
 * for.
 */
export interface ClusterConfig
  extends Pick<OptionValues, 'maxBucketPairs' | 'keep'>,
    Partial<Omit<VerificationOptions, 'maxBucketPairs'>>,
    Partial<Pick<OptionValues, 'threshold'>> {
  readonly shards: readonly string[];
  readonly engine: EngineName;
  /**
   * Reference shards (`sign REF --shard 1/1`): corpus documents near-duplicate to one of them are removed, as `dedup
   * --against`.
   */
  readonly against?: readonly string[];
  /** id, cluster, kept per document: CSV, JSONL (.jsonl) or Parquet (.parquet). */
  readonly clusters?: string;
  /** The ids of the removed documents, in input order (CSV with header `id`, or JSONL). */
  readonly removed?: string;
  /** `--report`, `--report-html`, `--audit N`, `--audit-file`, `--corpus`. */
  readonly inspect?: InspectSettings;
  readonly engineOptions: EngineOptions;
}

export interface ClusterSummary {
  readonly documents: number;
  readonly clusters: number;
  readonly removed: number;
  readonly meta: ShardMeta;
  readonly threshold: number;
  readonly stats: EngineStats;
  readonly seconds: number;
  /** With --report, --report-html or --audit: the report (what --report writes). */
  readonly report?: ClusterReport;
  /** Shards with text ranges: the bytes of shingle sets the exact pass held in memory at most (hostSetBytes). */
  readonly hostSetBytes?: number;
}

export type PlanSettings = Pick<
  ClusterConfig,
  | 'shards'
  | 'engine'
  | 'threshold'
  | 'maxBucketPairs'
  | 'keep'
  | 'verify'
  | 'clusterCheck'
  | 'chainDelta'
  | 'maxRepresentatives'
  | 'estimateError'
  | 'against'
  | 'inspect'
> & { readonly engineOptions?: Pick<EngineOptions, 'memoryLimit'> };

/** The checked shard set and the plan it gets. */
export async function planFor(
  config: PlanSettings,
): Promise<{ meta: ShardMeta; plan: ClusterPlan; threshold: number; verify: VerifyMode; byText: boolean }> {
  const metas = await Promise.all(config.shards.map(readShardMeta));
  const meta = checkShardSet(config.shards, metas);
  const simhash = checkSimhashCluster(config, meta);
  const threshold = config.threshold ?? meta.threshold;
  const { k, slotBits } = meta.params;
  const verify = config.verify ?? defaultOf('verify');
  const rule = sqlPairRule(verify, threshold, k, slotBits, config.estimateError, simhash);
  const check = representativeCheck(config, verify, threshold, k, slotBits, simhash);
  const exact = hasMargin(rule) || (check !== undefined && hasMargin(check.rule));
  if (exact && !meta.sets && meta.texts === undefined) {
    throw new RangeError(
      `--verify ${verify} needs the shingle sets, and ${config.shards[0]} has none (signed with --verify estimate or none): ` +
        `sign the shards again without it, or cluster with --verify estimate`,
    );
  }
  const byText = exact && !meta.sets;
  if (byText) checkTextRanges(config, meta, verify);
  const keep = config.keep.kind === 'field' ? 'score' : config.keep.kind;
  if (config.keep.kind === 'field' && meta.scoreField !== config.keep.field) {
    throw new RangeError(
      `--keep ${describeKeepPolicy(config.keep)} needs the shards signed with it, and ${config.shards[0]} ` +
        `${meta.scoreField === undefined ? 'stores no score' : `stores field:${meta.scoreField}`}: sign them with ` +
        `--keep ${describeKeepPolicy(config.keep)}`,
    );
  }
  if (config.inspect?.audit !== undefined && !meta.sets) {
    throw new RangeError(
      `--audit measures exact Jaccard on the shingle lists, and ${config.shards[0]} has none (signed with --verify ` +
        `estimate or none, or without --shard-lists): sign the shards again with --shard-lists`,
    );
  }
  const reference =
    config.against !== undefined && config.against.length > 0
      ? { anchors: referenceAnchors(config.maxBucketPairs) }
      : undefined;
  if (reference !== undefined) await checkReference(config.against!, config.shards[0], meta);
  const joinPlan = clusterPlan({
    k,
    bands: meta.lsh.bands,
    maxBucketPairs: config.maxBucketPairs,
    verify: rule,
    check,
    keep,
    reference,
    ...engineJoins(config, metas, k, byText),
  });
  const plan =
    config.inspect !== undefined && wantsInspection(config.inspect)
      ? {
          ...joinPlan,
          inspect: inspectPlan(
            inspectOptionsFor(meta, config.inspect, meta.ranges === undefined ? undefined : rangeOffsets(metas)),
          ),
        }
      : joinPlan;
  return { meta, plan, threshold, verify, byText };
}

/**
 * The representative check's rule, as nearDuplicates.ts: it decides as verification did, at t − δ (the estimate for
 * verify none); none at t − δ ≤ 0.
 */
function representativeCheck(
  config: PlanSettings,
  verify: VerifyMode,
  threshold: number,
  k: number,
  slotBits: SlotBits,
  simhash: boolean,
): ClusterSqlOptions['check'] {
  const checkThreshold = threshold - (config.chainDelta ?? defaultOf('chainDelta'));
  const checkVerify = verify === 'none' ? 'estimate' : verify;
  return (config.clusterCheck ?? defaultOf('clusterCheck')) === 'representative' && checkThreshold > 0
    ? {
        rule: sqlPairRule(checkVerify, checkThreshold, k, slotBits, config.estimateError, simhash),
        maxRepresentatives: config.maxRepresentatives ?? defaultOf('maxRepresentatives'),
      }
    : undefined;
}

/**
 * Whether the shards hold SimHash fingerprints (`sign --shard --scheme simhash`): then the threshold is the one of
 * their --max-hamming (as dedup refuses --threshold with it), and --audit, which measures Jaccard, is refused.
 */
function checkSimhashCluster(config: PlanSettings, meta: ShardMeta): boolean {
  if (schemeOf(meta.params) !== 'simhash') return false;
  const maxHamming = maxHammingOfBands(meta.lsh);
  if (maxHamming === undefined)
    throw new RangeError(
      `${config.shards[0]} holds SimHash fingerprints banded ${meta.lsh.bands} × ${meta.lsh.rows}, which are no ` +
        "--max-hamming's block tables (an older gpudedup's): sign the shards again",
    );
  if (config.threshold !== undefined)
    throw new RangeError(
      `${config.shards[0]} holds SimHash fingerprints, banded for --max-hamming ${maxHamming}: cluster decides at it, ` +
        'not at --threshold (sign the shards again with another --max-hamming)',
    );
  if (config.inspect?.audit !== undefined)
    throw new RangeError('--audit measures exact Jaccard, and SimHash shards are decided by the angle: leave it out');
  return true;
}

/** The reference shards: a complete set, signed and banded as the corpus's shards, with sets where they have them. */
async function checkReference(paths: readonly string[], corpusPath: string, corpus: ShardMeta): Promise<void> {
  const meta = checkShardSet(paths, await Promise.all(paths.map(readShardMeta)));
  // checkShardSet names each difference; the shard counts, sizes, keep scores, thresholds and reading options
  // (another file's text field) of corpus and reference may differ: their signatures are compared.
  const align = (m: ShardMeta, index: number): ShardMeta => ({
    ...m,
    shard: { index, count: 2 },
    totalDocuments: 0,
    ranges: undefined,
    scoreField: undefined,
    threshold: 0,
    read: undefined,
    texts: undefined,
  });
  checkShardSet([corpusPath, paths[0]], [align(corpus, 0), align(meta, 1)]);
}

/** The engine's options: the reference shards; on shards with text ranges, the exact pass's decider (`hostBytes`). */
async function runEngine(
  config: ClusterConfig,
  plan: ClusterPlan,
  meta: ShardMeta,
  hostBytes: number | undefined,
): Promise<EngineRun> {
  const textBytes = meta.texts?.files.reduce((n, f) => n + f.size, 0);
  const threads = runThreads(config.engineOptions.threads, textBytes);
  const decider =
    hostBytes !== undefined ? textDecider(meta, { ...config.engineOptions, threads }, hostBytes) : undefined;
  const host = { decideByText: decider?.decide, hostBytes, hostHeld: decider?.held, steps: decider?.steps };
  const options = { ...config.engineOptions, reference: config.against, ...host };
  // The engine has run every step when it returns: the exact pass's workers end then.
  try {
    return config.engine === 'duckdb'
      ? await runDuckDb(plan, config.shards, options)
      : await runSpark(plan, config.shards, options);
  } finally {
    decider?.close();
  }
}

export async function runCluster(config: ClusterConfig): Promise<ClusterSummary> {
  const started = performance.now();
  const inspect = config.inspect ?? {};
  const outputs = [
    ['--clusters', config.clusters],
    ['--removed', config.removed],
    ['--report', inspect.report],
    ['--report-html', inspect.reportHtml],
    ['--audit-file', inspect.auditFile],
  ] as const;
  await checkOutputs(
    outputs.filter(([, path]) => path !== undefined).map(([flag, path]) => ({ flag, path: path! })),
    [
      ...config.shards.map((path) => ({ path, role: 'a shard' })),
      ...(config.against ?? []).map((path) => ({ path, role: 'a reference shard' })),
      ...(inspect.corpus ?? []).map((path) => ({ path, role: 'the corpus' })),
    ],
  );
  const { meta, plan, threshold, verify, byText } = await planFor(config);
  const hostBytes = byText ? hostSetBytes(memoryLimitOf(config.engineOptions)) : undefined;
  const run = await runEngine(config, plan, meta, hostBytes);
  try {
    const chainDelta = config.chainDelta ?? defaultOf('chainDelta');
    const inspection =
      run.inspected === undefined ? undefined : readInspection(run.inspected, meta, threshold, chainDelta, inspect);
    // The shown clusters' numbers come from the rows as they stream (their labels are positions, not numbers).
    const watched = new Set(inspection?.largest.map((c) => c.kept.id));
    const numbers = new Map<string, number>();
    const counts = await writeClusterOutputs(
      run,
      config,
      meta.totalDocuments,
      (row) => watched.has(row.id) && numbers.set(row.id, row.cluster),
    );
    const seconds = (performance.now() - started) / 1000;
    const summary = { ...counts, meta, threshold, stats: run.stats, seconds, hostSetBytes: hostBytes };
    if (inspection === undefined) return summary;
    const report = await writeInspection(inspection, inspect, {
      shards: config.shards,
      against: config.against ?? [],
      keep: config.keep,
      estimateError: config.estimateError,
      maxRepresentatives: config.maxRepresentatives,
      backend: config.engine === 'spark' ? `spark local[${config.engineOptions.threads ?? 2}]` : 'duckdb',
      meta,
      threshold,
      verify,
      clusterCheck: config.clusterCheck ?? defaultOf('clusterCheck'),
      chainDelta,
      stats: run.stats,
      rows: { ...counts, numbers },
      note: (message) => config.engineOptions.onNote?.(message),
    });
    return { ...summary, report };
  } finally {
    await run.close();
  }
}
