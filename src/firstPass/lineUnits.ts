/**
 * A JSON Lines file's decompressed bytes → `lines` units of about
 * `unitBytes`, each cut after a \n, numbered by their first line as
 * node:readline counts lines (\n, \r\n and a lone \r each end one). A `.json`
 * file whose first text opens an array is one `json-array` unit instead.
 * No Node imports: the CLI and the tab cut their files the same way.
 *
 * This runs on the thread that feeds every worker, so it touches each byte as
 * little as it can: a chunk is searched from its end for its last \n when it
 * comes in, copied once, into the unit that holds it, when that unit is cut,
 * and searched once more for the unit's line count (memchr, in Node).
 */
import { isJsonName } from '../io/jsonLines.js';
import { searchable } from '../io/searchable.js';
import type { InputUnit } from './protocol.js';

const LF = 0x0a;
const CR = 0x0d;
/** Half a MiB: hundreds of documents a unit, and enough units to keep every worker busy on a few MB. */
export const UNIT_BYTES = 1 << 19;

/**
 * `unitLines`: also cut after this many lines (a checkpoint of `sign --batch-size`, or a slow pipe's lines as they
 * come). Where a unit ends depends on the chunks as they come: once `unitBytes` are held, after the last \n held.
 */
export async function* lineUnits(
  path: string,
  chunks: AsyncIterable<Uint8Array>,
  qualifyIds: boolean,
  unitBytes = UNIT_BYTES,
  unitLines = Infinity,
): AsyncGenerator<InputUnit> {
  const held = new HeldBytes();
  let firstLine = 1;
  let offset = 0;
  let opened = !isJsonName(path);
  const unit = (bytes: Uint8Array, final: boolean): InputUnit => {
    const out: InputUnit = { kind: 'lines', path, bytes, firstLine, offset, qualifyIds, stripBom: offset === 0 };
    firstLine += countLines(bytes, final);
    offset += bytes.length;
    return out;
  };
  for await (const chunk of chunks) {
    held.push(chunk);
    if (!opened) {
      const start = openingText(held.parts);
      if (start === undefined) continue; // only white space so far
      opened = true;
      if (start === '[') {
        const parts = [...held.parts];
        for await (const more of chunks) parts.push(more);
        yield { kind: 'json-array', path, bytes: concat(parts), qualifyIds };
        return;
      }
    }
    for (let cut = held.cut(unitBytes, unitLines); cut > 0; cut = held.cut(unitBytes, unitLines))
      yield unit(held.take(cut), false);
  }
  if (held.length > 0) yield unit(held.take(held.length), true);
}

/** The chunks not yet in a unit, as they came (views, not copies). */
class HeldBytes {
  readonly parts: Uint8Array[] = [];
  length = 0;
  /** Just after the last \n held; 0 when none is. */
  private lastEnd = 0;
  /** For a cut by lines: the \n counted so far, up to `scanAt` in `parts[scanPart]`, which starts at `scanBase`. */
  private ends = 0;
  private scanPart = 0;
  private scanAt = 0;
  private scanBase = 0;

  push(chunk: Uint8Array): void {
    const end = searchable(chunk).lastIndexOf(LF);
    if (end >= 0) this.lastEnd = this.length + end + 1;
    this.parts.push(chunk);
    this.length += chunk.length;
  }

  /** Where to cut: after the `lines`-th \n, else after the last \n once `bytes` are held; 0: not yet. */
  cut(bytes: number, lines: number): number {
    if (lines !== Infinity) {
      const at = this.lineEnd(lines);
      if (at > 0) return at;
    }
    return this.length >= bytes ? this.lastEnd : 0;
  }

  /** Just after the `lines`-th \n held, or 0; each byte is searched once per unit. */
  private lineEnd(lines: number): number {
    for (; this.scanPart < this.parts.length; this.scanPart++, this.scanAt = 0) {
      const part = this.parts[this.scanPart];
      const search = searchable(part);
      for (let i = search.indexOf(LF, this.scanAt); i >= 0; i = search.indexOf(LF, i + 1)) {
        this.scanAt = i + 1;
        if (++this.ends === lines) return this.scanBase + i + 1;
      }
      this.scanBase += part.length;
    }
    return 0;
  }

  /**
   * The first `cut` bytes, copied once into a buffer of their own (which the unit may transfer); the rest stays held.
   */
  take(cut: number): Uint8Array {
    const out = new Uint8Array(cut);
    let at = 0;
    let used = 0;
    while (at < cut) {
      const part = this.parts[used];
      const n = Math.min(part.length, cut - at);
      out.set(n === part.length ? part : part.subarray(0, n), at);
      at += n;
      if (n === part.length) used++;
      else this.parts[used] = part.subarray(n);
    }
    this.parts.splice(0, used);
    this.length -= cut;
    this.lastEnd = Math.max(0, this.lastEnd - cut);
    // The next unit's lines are counted from its start (after a cut by bytes, what is left holds no \n).
    this.ends = this.scanPart = this.scanAt = this.scanBase = 0;
    return out;
  }
}

/**
 * Lines in a unit: one per \n, one per \r that is not part of \r\n (nor the
 * end of the file's last line), and the last line when it has no end.
 */
export function countLines(bytes: Uint8Array, final: boolean): number {
  const search = searchable(bytes);
  let lines = 0;
  for (let i = search.indexOf(LF); i >= 0; i = search.indexOf(LF, i + 1)) lines++;
  const last = bytes.length - 1;
  if (final && bytes.length > 0 && bytes[last] !== LF) lines++;
  for (let i = search.indexOf(CR); i >= 0; i = search.indexOf(CR, i + 1)) {
    if (i < last && bytes[i + 1] !== LF) lines++;
  }
  return lines;
}

const decoder = new TextDecoder('utf-8');

/** The first character that is not white space (a BOM counts as white space), or undefined when there is none yet. */
function openingText(parts: readonly Uint8Array[]): string | undefined {
  for (const part of parts) {
    const text = decoder.decode(part.subarray(0, 4096)).trimStart();
    if (text.length > 0) return text[0];
    if (part.length > 4096) return '{'; // 4 KiB of white space: not worth looking further
  }
  return undefined;
}

/** The parts in one new buffer of their own. */
function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
