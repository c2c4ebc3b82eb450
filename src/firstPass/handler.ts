/**
 * A first-pass worker's request handler (worker threads, Web Workers, or
 * inline): `read` parses a unit and answers with its documents' keys and
 * scores, keeping the texts; `finish` shingles the selected ones, signs them
 * on the CPU kernel or returns their shingles, and forgets the unit.
 */
import { keepScore } from '../clusters/keepPolicy.js';
import { murmur3x86_128 } from '../math/murmur3.js';
import { pack } from '../shingles/shingleBatch.js';
import { shingleNormalized } from '../shingles/shingles.js';
import { openCpuKernel } from '../signatures/cpuKernel.js';
import { exactMatchUtf8, hasToken, normalizeText } from '../text/normalize.js';
import type { FirstPassRequest, FirstPassResponse, ReadSetup, SelectedDocuments, UnitDocuments } from './protocol.js';
import type { FirstPassHandler, FirstPassSources } from './ports.js';
import { parseUnit, type ParsedDocument } from './readUnit.js';

export function firstPassHandler(sources: FirstPassSources): FirstPassHandler {
  // Each text is normalized once, for its exact key and again for its shingles.
  const held = new Map<number, { documents: ParsedDocument[]; normalized: string[]; setup: ReadSetup }>();
  return async (request: FirstPassRequest) => {
    switch (request.type) {
      case 'read': {
        const parsed = await parseUnit(request.input, request.setup.read, sources);
        const normalized = parsed.documents.map((d) => normalizeText(d.text, request.setup.shingle.normalize));
        held.set(request.unit, { documents: parsed.documents, normalized, setup: request.setup });
        const documents = describe(parsed.documents, normalized, request.setup, parsed);
        return { response: { documents }, transfer: transfersOf(documents) };
      }
      case 'finish': {
        const unit = held.get(request.unit);
        held.delete(request.unit);
        if (unit === undefined) throw new Error(`first pass: unit ${request.unit} was never read here`);
        const selected = finish(unit.documents, unit.normalized, request.select, unit.setup, request.mode);
        const transfer = [selected.signatures, selected.shingles, selected.offsets].filter((a) => a !== undefined).map((a) => a.buffer as ArrayBuffer);
        return { response: { selected }, transfer };
      }
      case 'drop':
        held.delete(request.unit);
        return { response: { dropped: true }, transfer: [] };
    }
  };
}

const encoder = new TextEncoder();

/** What the ordering thread needs of each document: keys, scores, places. */
function describe(documents: readonly ParsedDocument[], normalizedTexts: readonly string[], setup: ReadSetup, parsed: { invalid: string[]; error?: string; binary?: boolean }): UnitDocuments {
  const count = documents.length;
  const out = {
    count,
    ids: documents.map((d) => d.id),
    idKeys: new Uint32Array(4 * count),
    exactKeys: new Uint32Array(4 * count),
    empty: new Uint8Array(count),
    scores: new Float64Array(count),
    missingKeep: 0,
    lines: new Int32Array(count),
    starts: new Float64Array(count),
    ends: new Float64Array(count),
    textBytes: 0,
    invalid: parsed.invalid,
    error: parsed.error,
    binary: parsed.binary,
  };
  let buffer = new Uint8Array(1 << 16);
  const hashInto = (text: string, keys: Uint32Array, at: number): number => {
    if (buffer.length < text.length * 3) buffer = new Uint8Array(text.length * 3);
    const { written } = encoder.encodeInto(text, buffer);
    keys.set(murmur3x86_128(buffer, written), at);
    return written;
  };
  for (let i = 0; i < count; i++) {
    const doc = documents[i];
    hashInto(doc.id, out.idKeys, 4 * i);
    const score = keepScore(setup.keep, doc.text, doc.record);
    out.scores[i] = score.score;
    if (score.missing) out.missingKeep++;
    const normalized = normalizedTexts[i];
    if (setup.exactKeys === false) {
      // sign: no pre-pass, so no key to hash; empty is "no token" (what a zero-length exact key means).
      if (!hasToken(normalized)) out.empty[i] = 1;
    } else {
      if (buffer.length < normalized.length * 3) buffer = new Uint8Array(normalized.length * 3);
      const exactBytes = exactMatchUtf8(normalized, buffer);
      if (exactBytes === 0) out.empty[i] = 1;
      else out.exactKeys.set(murmur3x86_128(buffer, exactBytes), 4 * i);
    }
    out.lines[i] = doc.line;
    out.starts[i] = doc.start;
    out.ends[i] = doc.end;
    out.textBytes += utf8Length(doc.text);
  }
  return out;
}

function utf8Length(text: string): number {
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

function finish(documents: readonly ParsedDocument[], normalized: readonly string[], select: Uint32Array, setup: ReadSetup, mode: Extract<FirstPassRequest, { type: 'finish' }>['mode']): SelectedDocuments {
  const started = performance.now();
  const batch = pack(Array.from(select, (i) => shingleNormalized(documents[i].text, normalized[i], setup.shingle)));
  const shingleCount = batch.offsets[select.length];
  const shingled = performance.now();
  const timing = { shingleCount, shingleMs: shingled - started, signMs: 0 };
  if (!mode.sign) return { ...timing, shingles: batch.shingles, offsets: batch.offsets };
  const signatures = openCpuKernel(mode.kernel).kernel.sign(mode.family, batch);
  timing.signMs = performance.now() - shingled;
  return mode.keepSets ? { ...timing, signatures, shingles: batch.shingles, offsets: batch.offsets } : { ...timing, signatures };
}

function transfersOf(documents: UnitDocuments): ArrayBuffer[] {
  return [documents.idKeys, documents.exactKeys, documents.empty, documents.scores, documents.lines, documents.starts, documents.ends].map((a) => a.buffer as ArrayBuffer);
}
