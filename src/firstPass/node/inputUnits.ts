/**
 * The CLI's inputs as first-pass units (src/firstPass/protocol.ts): an
 * uncompressed JSON Lines file as byte ranges, which the workers read and cut
 * at line ends themselves (rangeUnits.ts); other JSON Lines (compressed,
 * standard input, a pipe, a `.json` file, or cut by lines) streamed,
 * decompressed here and cut at line ends; a plain-text file and each Parquet
 * row group handed out whole, for the worker to read itself.
 */
import type { InputUnit } from '../protocol.js';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { lineUnits, UNIT_BYTES } from '../lineUnits.js';
import { isJsonName } from '../../io/jsonLines.js';
import { compressionOf, isParquetHead, MAGIC_BYTES } from '../../io/inputFormat.js';
import { spooledInput } from '../../io/spooledInputs.js';
import { localParquetFile } from '../../io/localParquetFile.js';
import { openParquet } from '../../io/parquetDocuments.js';
import { openDecompressed, type InputFile } from '../../io/readDocuments.js';

/**
 * `onBytes` gets the input bytes read so far (before decompression; whole files and row groups as they are handed out).
 */
export async function* inputUnits(
  files: readonly InputFile[],
  onBytes?: (bytes: number) => void,
  cut: { bytes?: number; lines?: number } = {},
): AsyncGenerator<InputUnit> {
  let before = 0;
  const qualifyIds = files.length > 1;
  for (const file of files) {
    const size = file.format === 'jsonl' && cut.lines === undefined ? rangeSize(file) : undefined;
    if (size !== undefined) {
      const step = cut.bytes ?? UNIT_BYTES;
      for (let start = 0; start < size; start += step) {
        const end = Math.min(size, start + step);
        yield { kind: 'range', path: file.path, source: file.path, start, end, size, qualifyIds };
        onBytes?.((before += end - start));
      }
    } else if (file.format === 'jsonl') {
      const stream = await openDecompressed(file.path, (n) => onBytes?.((before += n)));
      yield* lineUnits(file.path, stream as AsyncIterable<Uint8Array>, qualifyIds, cut.bytes, cut.lines);
    } else if (file.format === 'text') {
      yield { kind: 'text-file', path: file.path, source: file.path };
      onBytes?.((before += file.size ?? 0));
    } else {
      const groups = await rowGroupSizes(file.path);
      for (let group = 0; group < groups.length; group++) {
        yield { kind: 'parquet-group', path: file.path, source: file.path, group, qualifyIds };
        onBytes?.((before += groups[group]));
      }
    }
  }
}

/**
 * The size of a JSON Lines file that can be read by range — a file of its own (no pipe, no copy), not compressed, not
 * `.json` — else undefined.
 */
export function rangeSize(file: InputFile): number | undefined {
  if (file.path === '-' || spooledInput(file.path) !== undefined || isJsonName(file.path)) return undefined;
  let fd: number | undefined;
  try {
    fd = openSync(file.path, 'r');
    const stat = fstatSync(fd);
    if (!stat.isFile()) return undefined;
    const head = Buffer.alloc(MAGIC_BYTES);
    const n = readSync(fd, head, 0, MAGIC_BYTES, 0);
    const plain = compressionOf(head.subarray(0, n)) === 'none' && !isParquetHead(head.subarray(0, n));
    return plain ? stat.size : undefined;
  } catch {
    return undefined; // the stream's reading names the problem
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Each row group's compressed bytes, from the footer. */
async function rowGroupSizes(path: string): Promise<number[]> {
  const parquet = await localParquetFile(path, () => undefined);
  try {
    const { metadata } = await openParquet(parquet.file, path);
    return metadata.row_groups.map((g) => Number(g.total_compressed_size ?? g.total_byte_size));
  } finally {
    await parquet.close();
  }
}
