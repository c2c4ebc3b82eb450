/**
 * The CLI's inputs as first-pass units (src/firstPass/protocol.ts): JSON
 * Lines streamed, decompressed here and cut at line ends; a plain-text file
 * and each Parquet row group handed out whole, for the worker to read itself.
 */
import type { InputUnit } from '../protocol.js';
import { lineUnits } from '../lineUnits.js';
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
    if (file.format === 'jsonl') {
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
