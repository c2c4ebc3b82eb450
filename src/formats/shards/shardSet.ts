/**
 * Reading a shard's metadata (shardFile.ts: the format) and checking that a set of shards can be joined:
 * same parameters, same input, every shard once.
 */
import { asyncBufferFromFile, parquetMetadataAsync } from 'hyparquet';
import { paramDifferences } from '../../signatures/params.js';
import {
  READABLE_SHARD_FORMATS,
  SHARD_FORMAT,
  SHARD_META_KEY,
  type ShardMeta,
  type ShardReading,
} from './shardFile.js';

/** The shard metadata of a Parquet file, or a one-line error naming it. */
export async function readShardMeta(path: string): Promise<ShardMeta> {
  let metadata;
  try {
    metadata = await parquetMetadataAsync(await asyncBufferFromFile(path));
  } catch (error) {
    throw new Error(`${path}: not a readable Parquet file (${(error as Error).message})`);
  }
  const entry = metadata.key_value_metadata?.find((kv) => kv.key === SHARD_META_KEY);
  if (entry?.value === undefined)
    throw new Error(`${path}: no ${SHARD_META_KEY} metadata: not a shard of \`gpudedup sign --shard\``);
  const meta = JSON.parse(entry.value) as ShardMeta;
  if (!READABLE_SHARD_FORMATS.includes(meta.format))
    throw new Error(
      `${path}: shard format ${meta.format}, expected ${SHARD_FORMAT} (or ${READABLE_SHARD_FORMATS.slice(0, -1).join(', ')}); sign it again with this gpudedup`,
    );
  return meta;
}

/**
 * Refuses shards that cannot be joined: different signature or LSH parameters
 * (naming each difference), different inputs or shard counts, a shard given
 * twice or missing. Returns the common metadata of the first.
 */
export function checkShardSet(paths: readonly string[], metas: readonly ShardMeta[]): ShardMeta {
  if (metas.length === 0) throw new RangeError('no shard files given');
  const first = metas[0];
  const seen = new Map<number, string>();
  metas.forEach((m, i) => {
    const differences = [
      ...paramDifferences(first.params, m.params),
      ...(['bands', 'rows'] as const)
        .filter((key) => first.lsh[key] !== m.lsh[key])
        .map((key) => `${key}: ${first.lsh[key]} vs ${m.lsh[key]}`),
      ...(first.shard.count !== m.shard.count ? [`shard count: ${first.shard.count} vs ${m.shard.count}`] : []),
      ...inputDifferences(first, m),
      ...exactStoreDifferences(first, m),
      ...(first.scoreField !== m.scoreField
        ? [`keep score: ${first.scoreField ?? 'none'} vs ${m.scoreField ?? 'none'}`]
        : []),
      ...(first.threshold !== m.threshold ? [`threshold: ${first.threshold} vs ${m.threshold}`] : []),
      ...readingDifferences(first.read, m.read),
    ];
    if (differences.length > 0)
      throw new RangeError(`${paths[i]} does not match ${paths[0]}: ${differences.join('; ')}`);
    const twice = seen.get(m.shard.index);
    if (twice !== undefined)
      throw new RangeError(`${twice} and ${paths[i]} are both shard ${m.shard.index + 1}/${m.shard.count}`);
    seen.set(m.shard.index, paths[i]);
  });
  const missing = Array.from({ length: first.shard.count }, (_, i) => i).filter((i) => !seen.has(i));
  if (missing.length > 0) {
    throw new RangeError(
      `missing shard${missing.length > 1 ? 's' : ''} ` +
        `${missing.map((i) => `${i + 1}/${first.shard.count}`).join(', ')}: every shard is needed for the clusters`,
    );
  }
  return first.ranges === undefined
    ? first
    : { ...first, totalDocuments: metas.reduce((sum, m) => sum + m.documents, 0) };
}

/** What each stores for the exact pass (lists, text ranges or none), and where text ranges point. */
function exactStoreDifferences(first: ShardMeta, m: ShardMeta): string[] {
  const stored = (x: ShardMeta): string => (x.sets ? 'lists' : x.texts !== undefined ? 'text ranges' : 'none');
  if (stored(first) !== stored(m)) return [`shingle sets: ${stored(first)} vs ${stored(m)}`];
  return JSON.stringify(first.texts) === JSON.stringify(m.texts)
    ? []
    : ['text ranges: the input files (paths, sizes or modification times) they point into differ'];
}

/**
 * Another text field signs other texts (another signature, another set); another id field or skipping names or counts
 * other documents.
 */
function readingDifferences(first: ShardReading | undefined, m: ShardReading | undefined): string[] {
  if (first === undefined || m === undefined)
    return (first === undefined) === (m === undefined)
      ? []
      : ['reading options: not recorded by one (an older gpudedup): sign it again'];
  const flags = {
    textField: '--text-field',
    idField: '--id-field',
    skipInvalid: '--skip-invalid',
    strict: '--strict',
  } as const;
  return (Object.keys(flags) as (keyof ShardReading)[])
    .filter((key) => first[key] !== m[key])
    .map((key) => `${flags[key]}: ${JSON.stringify(first[key])} vs ${JSON.stringify(m[key])}`);
}

/** Shards of different inputs: modulo shards each counted the whole input; ranges shards share one plan. */
function inputDifferences(first: ShardMeta, m: ShardMeta): string[] {
  if ((first.ranges === undefined) !== (m.ranges === undefined))
    return ['slicing: one read its own pieces, the other all of the input (standard input; or an older gpudedup)'];
  if (first.ranges !== undefined && m.ranges !== undefined) {
    return first.ranges.plan === m.ranges.plan
      ? []
      : ['input plan: the files, their sizes or the shard count differ (not the same input)'];
  }
  return first.totalDocuments !== m.totalDocuments
    ? [`input documents: ${first.totalDocuments} vs ${m.totalDocuments} (not the same input)`]
    : [];
}
