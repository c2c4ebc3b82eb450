/**
 * The tab's ports to the first pass (src/firstPass/ports.ts): how a worker
 * opens a File it is handed (Blob methods, gzip through DecompressionStream,
 * zstd through the CLI's fzstd decoder), the Web Workers it runs on (the
 * library's one pool, src/workers/pool.ts), and the Files cut into units with
 * the CLI's rules (lineUnits.ts).
 */
import { parquetMetadataAsync, type AsyncBuffer } from 'hyparquet';
import type { FirstPassSources } from '../src/firstPass/ports.js';
import type { InputUnit, SourceHandle } from '../src/firstPass/protocol.js';
import { lineUnits } from '../src/firstPass/lineUnits.js';
import { BINARY_SNIFF_BYTES, looksBinary } from '../src/io/binaryText.js';
import { InputError } from '../src/io/documents.js';
import { compressionOf, isParquetHead, isParquetName, MAGIC_BYTES } from '../src/io/inputFormat.js';
import { isJsonLinesName } from '../src/io/jsonLines.js';
import { zstdDecompressed } from '../src/io/zstdChunks.js';

function fileOf(source: SourceHandle): File {
  if (typeof source === 'string') throw new TypeError('the tab opens files as File objects');
  return source as File;
}

/** A File's bytes as chunks, decompressed by its magic; `onBytes` counts the bytes read from the file. */
export async function* decompressedChunks(file: File, onBytes?: (n: number) => void): AsyncGenerator<Uint8Array> {
  const compression = compressionOf(new Uint8Array(await file.slice(0, MAGIC_BYTES).arrayBuffer()));
  const counted = file.stream().pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        onBytes?.(chunk.byteLength);
        controller.enqueue(chunk);
      },
    }),
  );
  const stream =
    compression === 'gzip'
      ? counted.pipeThrough(new DecompressionStream('gzip') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>)
      : counted;
  const chunks = streamChunks(stream, file.name, compression === 'gzip');
  if (compression === 'zstd') yield* zstdDecompressed(chunks, file.name);
  else yield* chunks;
}

async function* streamChunks(
  stream: ReadableStream<Uint8Array>,
  name: string,
  gzip: boolean,
): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  for (;;) {
    let result: ReadableStreamReadResult<Uint8Array>;
    try {
      result = await reader.read();
    } catch (error) {
      throw new InputError(
        name,
        0,
        gzip
          ? `not a valid gzip stream (${(error as Error).message})`
          : `could not be read (${(error as Error).message})`,
      );
    }
    if (result.done) return;
    yield result.value;
  }
}

export const BROWSER_SOURCES: FirstPassSources = {
  async readWhole(source) {
    const parts: Uint8Array[] = [];
    for await (const chunk of decompressedChunks(fileOf(source))) parts.push(chunk);
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const part of parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  },
  async openParquet(source) {
    const file = fileOf(source);
    return { byteLength: file.size, slice: (start: number, end?: number) => file.slice(start, end).arrayBuffer() };
  },
};

/**
 * Files as first-pass units, in order, by the CLI's rules: Parquet by its magic, JSON Lines by name, else one text
 * document.
 */
export async function* webInputUnits(
  files: readonly File[],
  onBytes?: (bytes: number) => void,
  /** A file skipped: the note, and for a binary one its name (the report's binarySkipped, as the CLI's). */
  onSkipped?: (message: string, binaryFile?: string) => void,
): AsyncGenerator<InputUnit> {
  let before = 0;
  const qualifyIds = files.length > 1;
  refuseRepeatedNames(files);
  for (const file of files) {
    // What only a picked file can be: empty, or a binary file picked by mistake. Both are skipped and named.
    if (file.size === 0) {
      onSkipped?.(`${file.name}: empty file, skipped`);
      continue;
    }
    const head = new Uint8Array(await file.slice(0, MAGIC_BYTES).arrayBuffer());
    // As the CLI decides: a file read as one text document may be binary, and is skipped; a JSON Lines file is parsed
    // (a binary one fails on its first line, or its lines are skipped and counted under --skip-invalid).
    if (
      compressionOf(head) === 'none' &&
      !isParquetHead(head) &&
      !isJsonLinesName(file.name) &&
      looksBinary(new Uint8Array(await file.slice(0, BINARY_SNIFF_BYTES).arrayBuffer()))
    ) {
      onSkipped?.(`${file.name}: looks binary (NUL bytes or mostly invalid UTF-8), skipped`, file.name);
      onBytes?.((before += file.size));
      continue;
    }
    if (isParquetHead(head)) {
      const buffer: AsyncBuffer = {
        byteLength: file.size,
        slice: (start, end) => file.slice(start, end).arrayBuffer(),
      };
      const metadata = await parquetMetadataAsync(buffer).catch((error: Error) => {
        throw new InputError(file.name, 0, `not a readable Parquet file (${error.message})`);
      });
      for (let group = 0; group < metadata.row_groups.length; group++) {
        yield { kind: 'parquet-group', path: file.name, source: file, group, qualifyIds };
        onBytes?.((before += Number(metadata.row_groups[group].total_compressed_size ?? 0)));
      }
    } else if (isParquetName(file.name)) {
      throw new InputError(file.name, 0, 'not a Parquet file (it does not start with PAR1)');
    } else if (isJsonLinesName(file.name)) {
      yield* lineUnits(
        file.name,
        decompressedChunks(file, (n) => onBytes?.((before += n))),
        qualifyIds,
      );
    } else {
      yield { kind: 'text-file', path: file.name, source: file };
      onBytes?.((before += file.size));
    }
  }
}

/**
 * A page knows a picked file by its name alone (no folder): two files of one
 * name could not be told apart in a message, and their documents without ids
 * would both be named NAME:LINE, refused later as repeated ids. Refused here,
 * before any work, saying so.
 */
function refuseRepeatedNames(files: readonly File[]): void {
  const seen = new Set<string>();
  for (const file of files) {
    if (seen.has(file.name)) {
      throw new InputError(
        file.name,
        0,
        'two of the files picked have this name: the page knows a file by its name only (not its folder), so it ' +
          'cannot tell them apart in messages or name their documents without ids (NAME:LINE); rename one, or pick ' +
          'them one run at a time',
      );
    }
    seen.add(file.name);
  }
}
