/**
 * A unit's documents as the ordering thread needs them (ids, keys, scores,
 * places) and their shingle sets, kept by the worker until `finish`. Three
 * ways in, each giving the same values bit for bit:
 *   - a record of the document kernel (JSON Lines read in wasm),
 *   - a parsed document's text through the kernel (the other readers),
 *   - the TypeScript path (settings the kernel does not have, or a text it leaves to JavaScript).
 */
import { keepScore } from '../text/keepPolicy.js';
import { murmur3x86_128 } from '../math/murmur3.js';
import type { ShingleBatch } from '../shingles/shingleBatch.js';
import { shingleNormalized } from '../shingles/shingles.js';
import { exactMatchUtf8, hasToken, normalizeText } from '../text/normalize.js';
import type { ReadSetup, UnitDocuments } from './protocol.js';
import type { ParsedDocument, ParsedUnit } from './readUnit.js';
import { kernelText, R, shingleKernelSetup, type KernelRecords, type KernelSetup } from './wasm/unitKernel.js';
import { grown } from '../typedArrays.js';

/** The kernel's settings for a run, or undefined where a setting needs the TypeScript path. */
export function kernelSetupOf(setup: ReadSetup): KernelSetup | undefined {
  return setup.keep.kind === 'field' ? undefined : shingleKernelSetup(setup.shingle, setup.read);
}

/** The sets a worker keeps for `finish`: the selected documents' as one batch. */
export interface HeldSets {
  select(select: Uint32Array): ShingleBatch;
}

const encoder = new TextEncoder();
const LONE_SURROGATE = /\p{Cs}/u;

export class DocumentBuilder {
  /** The first malformed line when not skipping invalid ones: no document is added after it. */
  error: string | undefined;
  private readonly invalid: string[] = [];
  private binary = false;
  private count = 0;
  private idBytes: Uint8Array;
  private idEnds: Uint32Array;
  private idsUsed = 0;
  private readonly oddIds: Record<number, string> = {};
  private hasOddIds = false;
  private idKeys: Uint32Array;
  private exactKeys: Uint32Array;
  private empty: Uint8Array;
  private scores: Float64Array;
  private lines: Int32Array;
  private starts: Float64Array;
  private ends: Float64Array;
  private missingKeep = 0;
  private textBytes = 0;
  private shingles: Uint32Array;
  private offsets: Uint32Array;
  /** Kernel documents whose sets are still in the kernel's memory: pairs [from, to) of `records.shingles`. */
  private pending: { readonly records: KernelRecords; readonly from: number; to: number } | undefined;
  private buffer = new Uint8Array(1 << 16);

  /** `inputBytes`: the unit's size when known, to size the arrays once (a document per KiB, a shingle per 8 bytes). */
  constructor(
    private readonly setup: ReadSetup,
    private readonly kernel: KernelSetup | undefined,
    inputBytes = 0,
  ) {
    const n = Math.max(64, inputBytes >> 10);
    this.idBytes = new Uint8Array(32 * n);
    this.idEnds = new Uint32Array(n);
    this.idKeys = new Uint32Array(4 * n);
    this.exactKeys = new Uint32Array(4 * n);
    this.empty = new Uint8Array(n);
    this.scores = new Float64Array(n);
    this.lines = new Int32Array(n);
    this.starts = new Float64Array(n);
    this.ends = new Float64Array(n);
    this.offsets = new Uint32Array(n + 1);
    this.shingles = new Uint32Array(Math.max(1 << 14, inputBytes >> 1));
  }

  /**
   * A document the kernel read from a JSON line (its record at word `at`); `offset`: the unit's first byte in its file.
   */
  addKernelRecord(records: KernelRecords, at: number, offset: number): void {
    const w = records.words;
    const d = this.next();
    const idStart = w[at + R.ID_START];
    this.appendId(records.ids.subarray(idStart, idStart + w[at + R.ID_LEN]));
    this.idKeys.set(w.subarray(at + R.ID_KEY, at + R.ID_KEY + 4), 4 * d);
    this.fromRecord(d, w, at, w[at + R.UTF16]);
    this.lines[d] = w[at + R.LINE];
    this.starts[d] = offset + w[at + R.START];
    this.ends[d] = offset + w[at + R.END];
    // Consecutive kernel documents' sets lie end to end in its memory: copied as one run (flushKernelSets).
    const first = w[at + R.SH_START];
    const count = w[at + R.SH_COUNT];
    if (this.pending === undefined) this.pending = { records, from: first, to: first };
    this.pending.to = first + count;
    this.offsets[d + 1] = this.offsets[d] + count;
  }

  /** Copies the sets of the kernel documents added since the last call: call it before the kernel runs again. */
  flushKernelSets(): void {
    const run = this.pending;
    if (run === undefined) return;
    this.pending = undefined;
    const pairs = run.to - run.from;
    const at = this.offsets[this.count] - pairs;
    this.reserveSets(at + pairs);
    this.shingles.set(run.records.shingles.subarray(2 * run.from, 2 * run.to), 2 * at);
  }

  /**
   * Documents a reader parsed in JavaScript, with its skipped lines, error and
   * binary flag. `throughKernel: false` keeps them off the kernel: a line it
   * handed back while it walks a unit (calling it then would overwrite the unit).
   */
  addParsed(parsed: ParsedUnit, throughKernel = true): void {
    for (const document of parsed.documents) this.addDocument(document, throughKernel);
    this.invalid.push(...parsed.invalid);
    if (parsed.error !== undefined) this.error ??= parsed.error;
    if (parsed.binary) this.binary = true;
  }

  done(): { documents: UnitDocuments; sets: HeldSets } {
    if (this.pending !== undefined) throw new Error('first pass: kernel sets not copied before done()');
    const n = this.count;
    const documents: UnitDocuments = {
      count: n,
      idBytes: this.idBytes.slice(0, this.idsUsed),
      idEnds: this.idEnds.slice(0, n),
      oddIds: this.hasOddIds ? this.oddIds : undefined,
      idKeys: this.idKeys.slice(0, 4 * n),
      exactKeys: this.exactKeys.slice(0, 4 * n),
      empty: this.empty.slice(0, n),
      scores: this.scores.slice(0, n),
      missingKeep: this.missingKeep,
      lines: this.lines.slice(0, n),
      starts: this.starts.slice(0, n),
      ends: this.ends.slice(0, n),
      textBytes: this.textBytes,
      invalid: this.invalid,
      error: this.error,
      binary: this.binary || undefined,
    };
    return { documents, sets: heldSets(this.shingles, this.offsets, n) };
  }

  private addDocument(doc: ParsedDocument, throughKernel: boolean): void {
    this.flushKernelSets();
    const d = this.next();
    // Its UTF-8 (lone surrogates as U+FFFD, as TextEncoder writes them) is both the id's bytes and what its key hashes.
    const { written } = encoder.encodeInto(doc.id, this.room(3 * doc.id.length));
    this.idKeys.set(murmur3x86_128(this.buffer, written), 4 * d);
    this.appendId(this.buffer.subarray(0, written));
    if (LONE_SURROGATE.test(doc.id)) {
      this.oddIds[d] = doc.id;
      this.hasOddIds = true;
    }
    this.lines[d] = doc.line;
    this.starts[d] = doc.start;
    this.ends[d] = doc.end;
    const records = this.kernel === undefined || !throughKernel ? undefined : kernelText(doc.text, this.kernel);
    if (records === undefined) {
      this.addByTypeScript(d, doc);
      return;
    }
    this.fromRecord(d, records.words, 0, doc.text.length);
    this.addSet(records.shingles, 0, records.words[R.SH_COUNT]);
  }

  /** Keys, score and counts from a kernel record. */
  private fromRecord(d: number, w: Int32Array, at: number, utf16: number): void {
    const empty = w[at + R.EMPTY] === 1;
    this.empty[d] = empty ? 1 : 0;
    if (!empty && this.setup.exactKeys !== false) this.exactKeys.set(w.subarray(at + R.EXACT, at + R.EXACT + 4), 4 * d);
    this.scores[d] = this.setup.keep.kind === 'longest' ? utf16 : 0;
    this.textBytes += w[at + R.UTF8];
  }

  /** The reference path: normalizeText, keepScore, exactMatchUtf8 and MurmurHash3, the TypeScript shingler. */
  private addByTypeScript(d: number, doc: ParsedDocument): void {
    const { setup } = this;
    const normalized = normalizeText(doc.text, setup.shingle.normalize);
    const score = keepScore(setup.keep, doc.text, doc.record);
    this.scores[d] = score.score;
    if (score.missing) this.missingKeep++;
    let empty: boolean;
    if (setup.exactKeys === false) empty = !hasToken(normalized);
    else {
      const bytes = exactMatchUtf8(normalized, this.room(3 * normalized.length));
      empty = bytes === 0;
      if (!empty) this.exactKeys.set(murmur3x86_128(this.buffer, bytes), 4 * d);
    }
    this.empty[d] = empty ? 1 : 0;
    this.textBytes += utf8Length(doc.text);
    // An empty document is never selected, so it needs no set.
    const set = empty ? new Uint32Array(0) : shingleNormalized(doc.text, normalized, setup.shingle);
    this.addSet(set, 0, set.length / 2);
  }

  /** The last document's id bytes. */
  private appendId(bytes: Uint8Array): void {
    if (this.idBytes.length < this.idsUsed + bytes.length)
      this.idBytes = grown(this.idBytes, Math.max(2 * this.idBytes.length, this.idsUsed + bytes.length));
    this.idBytes.set(bytes, this.idsUsed);
    this.idsUsed += bytes.length;
    this.idEnds[this.count - 1] = this.idsUsed;
  }

  private room(bytes: number): Uint8Array {
    if (this.buffer.length < bytes) this.buffer = new Uint8Array(bytes);
    return this.buffer;
  }

  /** Document `count`'s index, every per-document array grown to hold it. */
  private next(): number {
    const d = this.count++;
    if (d === this.empty.length) {
      const n = 2 * d;
      this.idKeys = grown(this.idKeys, 4 * n);
      this.exactKeys = grown(this.exactKeys, 4 * n);
      this.empty = grown(this.empty, n);
      this.scores = grown(this.scores, n);
      this.lines = grown(this.lines, n);
      this.starts = grown(this.starts, n);
      this.ends = grown(this.ends, n);
      this.offsets = grown(this.offsets, n + 1);
      this.idEnds = grown(this.idEnds, n);
    }
    return d;
  }

  /** Appends the last document's set: `count` pairs of `from` starting at pair `first`. */
  private addSet(from: Uint32Array, first: number, count: number): void {
    const d = this.count - 1;
    const at = this.offsets[d];
    this.reserveSets(at + count);
    this.shingles.set(from.subarray(2 * first, 2 * (first + count)), 2 * at);
    this.offsets[d + 1] = at + count;
  }

  private reserveSets(pairs: number): void {
    if (this.shingles.length < 2 * pairs)
      this.shingles = grown(this.shingles, Math.max(2 * this.shingles.length, 2 * pairs));
  }
}

function heldSets(shingles: Uint32Array, offsets: Uint32Array, count: number): HeldSets {
  return {
    select(select: Uint32Array): ShingleBatch {
      // Selections are increasing indexes: as many as the documents means all of them.
      if (select.length === count)
        return { shingles: shingles.subarray(0, 2 * offsets[count]), offsets: offsets.slice(0, count + 1) };
      const own = new Uint32Array(select.length + 1);
      for (let i = 0; i < select.length; i++) own[i + 1] = own[i] + offsets[select[i] + 1] - offsets[select[i]];
      const batch = new Uint32Array(2 * own[select.length]);
      for (let i = 0; i < select.length; i++)
        batch.set(shingles.subarray(2 * offsets[select[i]], 2 * offsets[select[i] + 1]), 2 * own[i]);
      return { shingles: batch, offsets: own };
    },
  };
}

/** Bytes of the text's UTF-8 (a lone surrogate: 3, as TextEncoder writes U+FFFD). */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // a surrogate pair: 4 bytes for 2 code units
      i++;
    } else bytes += 2;
  }
  return bytes;
}
