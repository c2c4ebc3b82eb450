/**
 * Output compression chosen by the file name: `*.gz` gzip (one stream, zlib),
 * `*.zst` / `*.zstd` zstd, anything else as is.
 *
 * zstd is compressed with @bokuweb/zstd-wasm (the zstd library as WebAssembly,
 * no native build; Node 20's zlib has no zstd). It compresses whole buffers
 * only, so the output is a sequence of zstd frames, one per buffered chunk
 * (about 1 MB of input each): standard zstd that `zstd -d`, DuckDB, fzstd and
 * gpudedup read as one stream (python-zstandard needs `read_across_frames=True`).
 */
import { createGzip, type Gzip } from 'node:zlib';
import { compress as zstdCompress, init as zstdInit } from '@bokuweb/zstd-wasm';

export type OutputCompression = 'gzip' | 'zstd' | 'none';

export function outputCompressionOf(path: string): OutputCompression {
  if (/\.gz$/i.test(path)) return 'gzip';
  if (/\.zstd?$/i.test(path)) return 'zstd';
  return 'none';
}

/** The name without its compression suffix (`x.jsonl.gz` → `x.jsonl`), to tell the format inside. */
export function withoutCompressionSuffix(path: string): string {
  return path.replace(/\.(gz|zstd?)$/i, '');
}

/** Turns the bytes of a file, chunk by chunk, into the bytes to write. */
export interface Encoder {
  push(bytes: Uint8Array): Promise<Uint8Array[]>;
  finish(): Promise<Uint8Array[]>;
}

const ZSTD_LEVEL = 3;
/**
 * The one init() of the process, kept on globalThis: a second init() replaces the module under compressions already
 * set up (measured: Parquet pages written after that were not zstd at all), and this module may be evaluated more than
 * once over the one zstd package (two copies of gpudedup in a bundle; the test runner's vi.resetModules, after which
 * a zstd file came out starting with zero bytes).
 */
const ZSTD_READY = Symbol.for('gpudedup.zstdReady');
const processWide = globalThis as { [ZSTD_READY]?: Promise<void> };

/** The zstd compressor, its WebAssembly instantiated once per process (ZSTD_READY). */
export async function loadZstd(): Promise<(bytes: Uint8Array) => Uint8Array> {
  await (processWide[ZSTD_READY] ??= zstdInit());
  return (bytes) => zstdCompress(bytes, ZSTD_LEVEL);
}

export async function makeEncoder(compression: OutputCompression): Promise<Encoder> {
  if (compression === 'none') return { push: async (bytes) => [bytes], finish: async () => [] };
  if (compression === 'zstd') {
    const compress = await loadZstd();
    return { push: async (bytes) => (bytes.length === 0 ? [] : [compress(bytes)]), finish: async () => [] };
  }
  return new GzipEncoder();
}

class GzipEncoder implements Encoder {
  private readonly gzip: Gzip = createGzip();
  private output: Uint8Array[] = [];
  private failure: Error | undefined;

  constructor() {
    this.gzip.on('data', (chunk: Buffer) => this.output.push(chunk));
    this.gzip.on('error', (error) => (this.failure = error));
  }

  async push(bytes: Uint8Array): Promise<Uint8Array[]> {
    await new Promise<void>((resolve, reject) =>
      this.gzip.write(bytes, (error) => (error ? reject(error) : resolve())),
    );
    return this.take();
  }

  async finish(): Promise<Uint8Array[]> {
    await new Promise<void>((resolve, reject) => {
      this.gzip.once('end', resolve);
      this.gzip.once('error', reject);
      this.gzip.end();
    });
    return this.take();
  }

  private take(): Uint8Array[] {
    if (this.failure) throw this.failure;
    const out = this.output;
    this.output = [];
    return out;
  }
}
