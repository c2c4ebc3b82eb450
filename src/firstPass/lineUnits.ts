/**
 * A JSON Lines file's decompressed bytes → `lines` units of about
 * `unitBytes`, each cut after a \n, numbered by their first line as
 * node:readline counts lines (\n, \r\n and a lone \r each end one). A `.json`
 * file whose first text opens an array is one `json-array` unit instead.
 * No Node imports: the CLI and the tab cut their files the same way.
 */
import { isJsonName } from '../io/jsonLines.js';
import type { InputUnit } from './protocol.js';

const LF = 0x0a;
const CR = 0x0d;
/** Half a MiB: hundreds of documents a unit, and enough units to keep every worker busy on a few MB. */
export const UNIT_BYTES = 1 << 19;

/** `unitLines`: also cut after this many lines (a checkpoint of `sign --batch-size`, or a slow pipe's lines as they come). */
export async function* lineUnits(path: string, chunks: AsyncIterable<Uint8Array>, qualifyIds: boolean, unitBytes = UNIT_BYTES, unitLines = Infinity): AsyncGenerator<InputUnit> {
  let parts: Uint8Array[] = [];
  let held = 0;
  let firstLine = 1;
  let offset = 0;
  let opened = false;
  const unit = (bytes: Uint8Array, final: boolean): InputUnit => {
    const out: InputUnit = { kind: 'lines', path, bytes, firstLine, offset, qualifyIds, stripBom: offset === 0 };
    firstLine += countLines(bytes, final);
    offset += bytes.length;
    return out;
  };
  for await (const chunk of chunks) {
    parts.push(chunk);
    held += chunk.length;
    if (!opened && isJsonName(path)) {
      const start = openingText(parts);
      if (start === undefined) continue; // only white space so far
      opened = true;
      if (start === '[') {
        yield { kind: 'json-array', path, bytes: copy(await readRest(parts, chunks)), qualifyIds };
        return;
      }
    }
    opened = true;
    for (;;) {
      const joined = concat(parts, held);
      const cut = cutAfter(joined, unitBytes, unitLines);
      if (cut === 0) {
        parts = [joined];
        break;
      }
      yield unit(copy(joined.subarray(0, cut)), false);
      const rest = joined.subarray(cut);
      parts = rest.length > 0 ? [rest] : [];
      held = rest.length;
    }
  }
  if (held > 0) yield unit(copy(concat(parts, held)), true);
}

/** Where to cut held bytes: after the `lines`-th \n, else after the last \n once `bytes` are held; 0: not yet. */
function cutAfter(held: Uint8Array, bytes: number, lines: number): number {
  if (lines !== Infinity) {
    let at = -1;
    for (let n = 0; n < lines; n++) {
      at = held.indexOf(LF, at + 1);
      if (at < 0) break;
      if (n === lines - 1) return at + 1;
    }
  }
  return held.length >= bytes ? held.lastIndexOf(LF) + 1 : 0;
}

/**
 * Lines in a unit: one per \n, one per \r that is not part of \r\n (nor the
 * end of the file's last line), and the last line when it has no end.
 */
export function countLines(bytes: Uint8Array, final: boolean): number {
  let lines = 0;
  for (let i = bytes.indexOf(LF); i >= 0; i = bytes.indexOf(LF, i + 1)) lines++;
  const last = bytes.length - 1;
  if (final && bytes.length > 0 && bytes[last] !== LF) lines++;
  for (let i = bytes.indexOf(CR); i >= 0; i = bytes.indexOf(CR, i + 1)) {
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

async function readRest(parts: Uint8Array[], chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  for await (const chunk of chunks) parts.push(chunk);
  return concat(parts, parts.reduce((n, p) => n + p.length, 0));
}

function concat(parts: readonly Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1 && parts[0].length === length) return parts[0];
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A copy in a buffer of its own, which the unit may transfer (a Node Buffer's slice() would share its pool). */
function copy(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  out.set(bytes);
  return out;
}
