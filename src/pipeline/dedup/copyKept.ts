/**
 * The kept documents copied on the stage workers (formats/files/rangeCopy.ts) where every input with documents is a
 * plain JSON Lines file on disk and the output a plain JSON Lines file: this thread only lists each file's kept lines
 * as byte ranges (DocumentRecords.lineRanges) and cuts them into pieces of a few MiB, each with its place in the
 * output (the kept bytes before it), so the workers write them in any order. The bytes are those writeKept.ts copies
 * line by line: each kept line as it came in, a line feed after a last line that had none.
 */
import { open } from 'node:fs/promises';
import type { DocumentRecords } from '../../firstPass/documentRecords.js';
import { fileSpans } from '../../firstPass/recordedLines.js';
import type { RangeCopyPool } from '../../dedup/node/stageWorkers.js';
import { copiedBytes, type RangeCopyRequest } from '../../formats/files/rangeCopy.js';
import { compressionOf } from '../../io/inputFormat.js';
import type { InputFile } from '../../io/readDocuments.js';
import { spooledInput } from '../../io/spooledInputs.js';
import type { StageProgress } from '../shared/config.js';

/** Input bytes a piece spans at most (a longer line is a piece of its own). */
const PIECE_BYTES = 4 << 20;

/** One input's kept lines: its ranges, and whether its last kept line ends the file without a line feed. */
interface KeptRanges {
  readonly path: string;
  readonly ranges: Float64Array;
  readonly lineEnd: boolean;
}

/**
 * Copies the kept lines into `output` (the output's temporary file, empty) on `pool`; false, having written nothing,
 * where some input is not a plain JSON Lines file on disk with recorded lines (then writeKept.ts copies them).
 */
export async function copyKeptOnWorkers(
  files: readonly InputFile[],
  records: DocumentRecords,
  kept: Uint8Array,
  output: string,
  pool: RangeCopyPool,
  progress: StageProgress,
  pieceBytes = PIECE_BYTES,
): Promise<boolean> {
  const plan = await keptRanges(files, records, kept);
  if (plan === undefined) return false;
  const pieces = piecesOf(plan, output, pieceBytes);
  let next = 0;
  let bytes = 0;
  let failure: { error: unknown } | undefined;
  // Every piece in flight ends before this returns or throws: nothing writes to the file once it is aborted.
  const feed = async (worker: number): Promise<void> => {
    while (next < pieces.length && failure === undefined) {
      const piece = pieces[next++];
      try {
        await pool.request(worker, piece.request);
      } catch (error) {
        failure ??= { error };
      }
      progress.update(0, (bytes += piece.inputBytes));
    }
  };
  await Promise.all(Array.from({ length: 2 * pool.size }, (_, i) => feed(i % pool.size)));
  if (failure !== undefined) throw failure.error;
  return true;
}

/** Each input's kept ranges, or undefined where an input cannot be copied by ranges. */
async function keptRanges(
  files: readonly InputFile[],
  records: DocumentRecords,
  kept: Uint8Array,
): Promise<KeptRanges[] | undefined> {
  const plan: KeptRanges[] = [];
  for (const { path, span } of fileSpans(records)) {
    const file = files.find((f) => f.path === path);
    if (file?.format !== 'jsonl' || path === '-' || spooledInput(path) !== undefined) return undefined;
    const ranges = records.lineRanges(span.first, span.end, kept);
    if (ranges === undefined) return undefined;
    const tail = await plainTail(path);
    if (tail === undefined) return undefined;
    if (ranges.length === 0) continue;
    // Every line but a file's last ends in a line feed; the last may not, and gets one.
    const lineEnd = ranges[ranges.length - 1] === tail.size && tail.last !== 0x0a;
    plan.push({ path, ranges, lineEnd });
  }
  return plan;
}

/** A file's size and last byte, or undefined when it is compressed (its lines lie in the decompressed bytes). */
async function plainTail(path: string): Promise<{ size: number; last: number } | undefined> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const head = new Uint8Array(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    if (compressionOf(head.subarray(0, bytesRead)) !== 'none') return undefined;
    const last = new Uint8Array(1);
    if (size > 0) await handle.read(last, 0, 1, size - 1);
    return { size, last: last[0] };
  } finally {
    await handle.close();
  }
}

/** The copy cut into requests of at most `pieceBytes` of input each (or one line), with their places in the output. */
function piecesOf(plan: readonly KeptRanges[], output: string, pieceBytes: number) {
  const pieces: { request: RangeCopyRequest; inputBytes: number }[] = [];
  let at = 0;
  for (const { path, ranges, lineEnd } of plan) {
    for (let i = 0; i < ranges.length; ) {
      let j = i + 2;
      while (j < ranges.length && ranges[j + 1] - ranges[i] <= pieceBytes) j += 2;
      const last = j === ranges.length;
      const request: RangeCopyRequest = {
        type: 'copy ranges',
        input: path,
        output,
        ranges: ranges.slice(i, j),
        at,
        lineEnd: last && lineEnd,
      };
      at += copiedBytes(request.ranges, request.lineEnd);
      pieces.push({ request, inputBytes: ranges[j - 1] - ranges[i] });
      i = j;
    }
  }
  return pieces;
}
