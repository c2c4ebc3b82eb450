/** Command-line options shared by the commands that read and sign documents. */
import { Command, InvalidArgumentError, Option } from 'commander';
import type { ReadOptions } from '../io/documents.js';
import { makeParams, SLOT_BITS, type ParamSlotBits, type SchemeName, type SignatureParams, type StoredBandLayout } from '../signatures/params.js';
import type { BackendChoice } from '../signatures/resolveBackend.js';
import { DATASKETCH_SCHEMES } from '../signatures/datasketchFamily.js';

export interface InputCliOptions {
  textField: string;
  idField: string;
  skipInvalid: boolean;
  strict: boolean;
  quiet: boolean;
}

export interface SignatureCliOptions {
  scheme: SchemeName;
  k: number;
  /** Absent: the scheme's default (makeParams). */
  seed?: string;
  shingle: 'word' | 'char' | 'auto';
  ngram: number;
  nfkc: boolean;
  stripPunctuation: boolean;
  /** Absent: the scheme's default (makeParams). */
  slotBits?: ParamSlotBits;
  backend: BackendChoice;
  threads?: number;
}

export function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

export function addInputOptions(command: Command): Command {
  return command
    .option('--text-field <name>', 'JSONL field or Parquet column holding the text', 'text')
    .option('--id-field <name>', 'JSONL field or Parquet column holding the id (else the line or row number)', 'id')
    .option('--skip-invalid', 'skip malformed lines (counted in the summary) instead of failing', false)
    .option('--strict', 'refuse binary files (NUL bytes, mostly invalid UTF-8) instead of skipping them', false)
    .option('-q, --quiet', 'print errors only: no progress bar, notes, warnings or summary', false);
}

export function addSignatureOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--scheme <name>', 'classic: k hash functions; oph: one hash into k bins, densified; datasketch-*: datasketch 2.0 MinHash, bit for bit')
        .choices(['classic', 'oph', ...DATASKETCH_SCHEMES])
        .default('classic'),
    )
    .option('-k, --k <hashes>', 'slots per signature (hash functions, or OPH bins)', positiveInteger, 128)
    .option('--seed <u64>', '64-bit seed of the hash family (decimal or 0x hex; default 42, for datasketch-* 1, its MinHash seed)')
    .addOption(new Option('--shingle <mode>', 'shingles: word n-grams, char n-grams, or auto per document').choices(['word', 'char', 'auto']).default('word'))
    .option('-n, --ngram <n>', 'shingle length: tokens (word) or code points (char)', positiveInteger, 5)
    .option('--nfkc', 'apply Unicode NFKC normalization first', false)
    .option('--strip-punctuation', 'turn Unicode punctuation and symbols into spaces', false)
    .addOption(
      new Option('--slot-bits <bits>', 'bits kept per slot (default 64; 32 halves memory; 1–16: b-bit slots with band keys of the full values; datasketch-*: its dtype)')
        .choices(SLOT_BITS.map(String))
        .argParser((v) => Number(v) as ParamSlotBits),
    )
    .addOption(new Option('--backend <name>', 'signing backend; auto = WebGPU if Dawn finds an adapter, else CPU').choices(['cpu', 'webgpu', 'auto']).default('auto'))
    .option('--threads <n>', 'worker threads of the CPU backend (default: one per core)', positiveInteger);
}

export function readOptionsFrom(options: InputCliOptions, onInvalid: (message: string) => void): ReadOptions {
  return { textField: options.textField, idField: options.idField, skipInvalid: options.skipInvalid, strict: options.strict, onInvalid };
}

/** `bandKeys`: the band layout b-bit slots store keys for (from the LSH options); ignored for 32 and 64 bits. */
export function signatureParamsFrom(options: SignatureCliOptions, bandKeys?: StoredBandLayout): SignatureParams {
  return makeParams({
    bandKeys: (options.slotBits ?? 64) < 32 ? bandKeys : undefined,
    scheme: options.scheme,
    k: options.k,
    seed: options.seed,
    shingle: options.shingle,
    n: options.ngram,
    nfkc: options.nfkc,
    stripPunctuation: options.stripPunctuation,
    slotBits: options.slotBits,
  });
}
