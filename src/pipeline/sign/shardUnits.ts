/**
 * `sign --shard` on uncompressed JSON Lines, read as `dedup` reads them: the first pass's workers read their own
 * byte ranges of the shard's pieces (src/firstPass/firstPass.ts), so no text passes through this thread, which only
 * orders the units, checks the ids and writes the rows. An exact duplicate within the shard takes its group's first
 * row instead of being signed (recentGroupRows.ts), except with shingle lists, whose every set is written.
 *
 * A document's text range is its JSON line with the line's end (the workers' range, shard format v4).
 */
import { UniqueIds } from '../../exact/uniqueIds.js';
import { setsOfEveryDocument } from '../../firstPass/signDocuments.js';
import { rowsOfEveryDocument, signedUnits, type SignedUnit } from '../../firstPass/signedUnits.js';
import type { InputUnit } from '../../firstPass/protocol.js';
import type { ShardWriter } from '../../formats/shards/shardFile.js';
import { unitSetup } from '../shared/corpusPass.js';
import { skippedInputCounter, type DedupHooks, type RunSigner, type StageProgress } from '../shared/config.js';
import { appendRows, type SignedRows } from './shardRows.js';
import { RecentGroupRows } from './recentGroupRows.js';
import type { ShardUnits } from './shardSources.js';
import type { LshParams } from '../../bands/lshParams.js';
import type { ReadOptions } from '../../io/documents.js';
import type { SignatureParams } from '../../signatures/params.js';

/** Memory for the rows of recent exact groups (a 128-slot 64-bit row is 1 KiB: 256 Ki groups). */
export const HELD_ROW_BYTES = 1 << 28;

export interface ShardRun {
  readonly config: { readonly params: SignatureParams; readonly lsh: LshParams; readonly read: ReadOptions };
  readonly signer: RunSigner;
  readonly hooks: DedupHooks;
  readonly lists: boolean;
  readonly texts: boolean;
}

/** Signs the units' documents into `writer`; returns how many are empty. */
export async function signUnitsInto(
  writer: ShardWriter,
  plan: ShardUnits,
  run: ShardRun,
  progress: StageProgress,
  heldRowBytes = HELD_ROW_BYTES,
): Promise<number> {
  const { config, signer } = run;
  const width = 2 * signer.firstPass.backend.k;
  const groups = run.lists
    ? undefined
    : new RecentGroupRows(width, Math.max(1, Math.floor(heldRowBytes / (4 * width))));
  const skipped = skippedInputCounter(run.hooks, config.read);
  // The units come back in the order they go out: each one's piece and bytes, queued.
  const sent: { piece: number; bytes: number }[] = [];
  let bytes = 0;
  function* units(): Generator<InputUnit> {
    for (const { unit, piece } of plan.units()) {
      sent.push({ piece, bytes: unit.end - unit.start });
      yield unit;
    }
  }
  let [empty, documents] = [0, 0];
  for await (const unit of signedUnits(units(), signer.firstPass, {
    // `longest`: each document's score is its text's length, the shard's `length` column.
    setup: unitSetup(config.params, config.read, { kind: 'longest' }),
    keepSets: run.lists,
    ids: new UniqueIds(),
    prePass: groups,
    onInvalid: skipped.onInvalid,
    onBinary: skipped.onBinary,
  })) {
    const { piece, bytes: unitBytes } = sent.shift()!;
    plan.read(unitBytes);
    bytes += unitBytes;
    const signatures =
      groups === undefined ? rowsOfEveryDocument(unit, signer.firstPass.backend.k) : groups.rowsOf(unit);
    const rows = unitRows(unit, signatures, piece, plan, run);
    empty += appendRows(writer, rows, config);
    documents += unit.documents.count;
    progress.update(documents, bytes);
  }
  if (groups !== undefined && groups.signedAgain > 0)
    run.hooks.note(`${groups.signedAgain} exact duplicates signed again (their first copy's row was no longer held)`);
  return empty;
}

/**
 * A unit's documents as rows: positions counted per piece, ids decoded. (Mid-file, a document without an id never gets
 * here: the workers refuse it, since its line number names nothing: readUnit.ts.)
 */
function unitRows(
  unit: SignedUnit,
  signatures: Uint32Array,
  piece: number,
  plan: ShardUnits,
  run: ShardRun,
): SignedRows {
  const { documents } = unit;
  const positions = new Float64Array(documents.count);
  for (let d = 0; d < documents.count; d++) positions[d] = plan.position(piece);
  const file = plan.fileOf(piece);
  const sets = run.lists ? setsOfEveryDocument(unit) : [];
  const { idBytes, idEnds, oddIds } = documents;
  return {
    count: documents.count,
    // The workers' UTF-8 bytes as they are (never decoded here), but an id the kernel could not give as bytes.
    id: (d, out) => {
      const odd = oddIds?.[d];
      if (odd !== undefined) out.addId(odd);
      else out.addIdBytes(idBytes, d === 0 ? 0 : idEnds[d - 1], idEnds[d]);
    },
    position: (d) => positions[d],
    length: (d) => documents.scores[d],
    rangeWords: run.texts ? { file, starts: documents.starts, ends: documents.ends } : undefined,
    exactKeys: documents.exactKeys,
    empty: documents.empty,
    signatures,
    set: run.lists ? (d) => sets[d] : undefined,
  };
}
