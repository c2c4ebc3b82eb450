/**
 * One dedup run in the tab: exact pre-pass → shingle → sign → band → verify →
 * cluster → keep, composed from the library's browser-safe modules (the same
 * TypeScript the CLI runs in Node).
 *
 * The exact pre-pass groups documents by normalizedForExactMatch (the CLI's
 * key) in a Map instead of src/clusters/exactDuplicates.ts, which hashes with
 * node:crypto and so cannot be bundled for a browser. The groups are the same,
 * numbered in order of first appearance like ExactDuplicateIndex.
 */
import { findCandidates } from '../src/bands/candidates.js';
import { DEDUP_WEIGHTS, optimalParams, type LshParams } from '../src/bands/lshParams.js';
import { fromSignerWords, signatureMatrix, type SlotBits } from '../src/bands/signatureMatrix.js';
import { assignClusters, type AssignmentCounts } from '../src/clusters/assignment.js';
import type { ClusterCheck } from '../src/clusters/clustering.js';
import { DocumentTable } from '../src/clusters/documentTable.js';
import { keepScore, type KeepPolicy } from '../src/clusters/keepPolicy.js';
import { verifyAndCluster } from '../src/clusters/nearDuplicates.js';
import { exactJaccard, type VerifyMode } from '../src/clusters/verification.js';
import { shingleDocument, type ShingleOptions } from '../src/shingles/shingles.js';
import type { SignerBackend } from '../src/signatures/backend.js';
import { pack } from '../src/shingles/shingleBatch.js';
import { normalizedForExactMatch } from '../src/text/normalize.js';

export interface WebDocument {
  readonly id: string;
  readonly text: string;
  /** JSONL input: the original line, written back verbatim when the document is kept. */
  readonly rawLine?: string;
  readonly record?: Record<string, unknown>;
}

export interface DedupSettings {
  readonly threshold: number;
  readonly shingle: ShingleOptions;
  readonly slotBits: SlotBits;
  readonly verify: VerifyMode;
  readonly clusterCheck: ClusterCheck;
  readonly keep: KeepPolicy;
}

export interface StageTime {
  readonly stage: string;
  readonly ms: number;
}

export interface DedupResult {
  readonly counts: AssignmentCounts;
  /** Cluster number of each input document. */
  readonly cluster: Uint32Array;
  /** 1 when the document is kept. */
  readonly kept: Uint8Array;
  /** Exact group of each input document (−1 when empty): equal groups have the same normalized text. */
  readonly group: Int32Array;
  readonly lsh: LshParams;
  readonly candidatePairs: number;
  readonly verifiedPairs: number;
  readonly shingles: number;
  readonly timings: StageTime[];
}

/** Shingles per sign() call: bounds the packed batch in memory; the GPU signer chunks further itself. */
const BATCH_SHINGLES = 1 << 20;

/** Lets the page repaint between stages (the stages themselves run on the main thread). */
const yieldToBrowser = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

export async function dedupDocuments(
  documents: readonly WebDocument[],
  settings: DedupSettings,
  backend: SignerBackend,
  onStage: (stage: string) => void = () => undefined,
): Promise<DedupResult> {
  const timings: StageTime[] = [];
  const timed = async <T>(stage: string, work: () => T | Promise<T>): Promise<T> => {
    onStage(stage);
    await yieldToBrowser();
    const start = performance.now();
    const value = await work();
    timings.push({ stage, ms: performance.now() - start });
    return value;
  };

  // Exact pre-pass and shingling: only the first document of each exact group is shingled and signed.
  const table = new DocumentTable();
  const sets = await timed('shingle', () => {
    const groupOf = new Map<string, number>();
    const firstSets: Uint32Array[] = [];
    for (const doc of documents) {
      const normalized = normalizedForExactMatch(doc.text, settings.shingle.normalize);
      let group = -1;
      if (normalized !== '') {
        group = groupOf.get(normalized) ?? -1;
        if (group < 0) {
          group = firstSets.length;
          groupOf.set(normalized, group);
          firstSets.push(shingleDocument(doc.text, settings.shingle));
        }
      }
      table.add(group, keepScore(settings.keep, doc.text, doc.record).score);
    }
    return firstSets;
  });

  const words = await timed('sign', () => signInBatches(sets, backend));
  const m = signatureMatrix(fromSignerWords(words, settings.slotBits), backend.k, settings.slotBits);
  const lsh = optimalParams(settings.threshold, backend.k, DEDUP_WEIGHTS);
  const candidates = await timed('band', () => findCandidates(m, lsh));
  const near = await timed('verify + cluster', () =>
    verifyAndCluster(m, candidates, {
      ...lsh,
      threshold: settings.threshold,
      verify: settings.verify,
      clusterCheck: settings.clusterCheck,
      compare: table.groupComparator(),
      exactSimilarity: (a, b) => exactJaccard(sets[a], sets[b]),
    }),
  );
  const assignment = await timed('keep', () => assignClusters(table, near.clustering.representative));
  return {
    counts: assignment.counts,
    cluster: assignment.cluster,
    kept: assignment.kept,
    group: Int32Array.from({ length: documents.length }, (_, d) => table.group(d)),
    lsh: { bands: lsh.bands, rows: lsh.rows },
    candidatePairs: candidates.a.length,
    verifiedPairs: near.verified.a.length,
    shingles: sets.reduce((sum, set) => sum + set.length / 2, 0),
    timings,
  };
}

/** Signatures of all sets, signed a bounded batch at a time, concatenated in order. */
async function signInBatches(sets: readonly Uint32Array[], backend: SignerBackend): Promise<Uint32Array> {
  const rowWords = backend.k * 2;
  const out = new Uint32Array(sets.length * rowWords);
  let first = 0;
  while (first < sets.length) {
    let end = first;
    let shingles = 0;
    while (end < sets.length && (end === first || shingles + sets[end].length / 2 <= BATCH_SHINGLES)) {
      shingles += sets[end].length / 2;
      end++;
    }
    out.set(await backend.sign(pack(sets.slice(first, end))), first * rowWords);
    first = end;
  }
  return out;
}
