/**
 * The added documents of a JSON Lines file copied byte for byte, as dedup's
 * writer copies kept lines (writeKept.ts): the file is streamed again and the
 * bytes of the wanted lines (numbered as the reader numbers them, line ends
 * \n, \r\n or a lone \r) go out as they are, invalid UTF-8 and CRLF included.
 * A line that shares its \n with others (lone \r ends) is written from its
 * text instead. Standard input cannot be read again: its lines are written
 * from their text (readDocuments' rawLine) by the caller.
 */
import type { KeptDocuments } from '../../formats/keptDocuments.js';
import { openDecompressed } from '../../io/readDocuments.js';

const LF = 0x0a;
const CR = 0x0d;

export interface WantedLine {
  /** 1-based, as readDocuments numbers it. */
  readonly line: number;
  /** Its text as read, for lines that cannot be cut out as bytes. */
  readonly rawLine: string;
}

export async function copyLines(
  path: string,
  wanted: readonly WantedLine[],
  out: Required<Pick<KeptDocuments, 'writeLine'>>,
): Promise<void> {
  let next = 0;
  let line = 1;
  const take = async (piece: Uint8Array): Promise<void> => {
    const lines = logicalLines(piece);
    if (lines === 1 && wanted[next]?.line === line) {
      await out.writeLine(line === 1 ? withoutBom(piece) : piece);
      next++;
    }
    // Several readline lines in one: each wanted one from its text.
    for (; lines > 1 && next < wanted.length && wanted[next].line < line + lines; next++)
      await out.writeLine(Buffer.from(wanted[next].rawLine + '\n'));
    line += lines;
  };
  let pending: Buffer[] = [];
  for await (const chunk of (await openDecompressed(path, () => undefined)) as AsyncIterable<Buffer>) {
    if (next >= wanted.length) break;
    let start = 0;
    for (let end = chunk.indexOf(LF, start); end >= 0 && next < wanted.length; end = chunk.indexOf(LF, start)) {
      const piece = chunk.subarray(start, end + 1);
      start = end + 1;
      await take(pending.length === 0 ? piece : Buffer.concat([...pending, piece]));
      pending = [];
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length > 0 && next < wanted.length) await take(Buffer.concat(pending));
  if (next < wanted.length)
    throw new Error(`${path}: the file changed while it was indexed (it ends before line ${wanted[next].line})`);
}

/**
 * How many lines readline sees in one \n-terminated piece: 1, plus one per lone \r (a \r before the \n ends the line).
 */
function logicalLines(piece: Uint8Array): number {
  let end = piece.length;
  if (end > 0 && piece[end - 1] === LF) end--;
  if (end > 0 && piece[end - 1] === CR) end--;
  let lines = 1;
  for (let i = piece.indexOf(CR); i >= 0 && i < end; i = piece.indexOf(CR, i + 1)) lines++;
  return lines;
}

function withoutBom(piece: Uint8Array): Uint8Array {
  return piece[0] === 0xef && piece[1] === 0xbb && piece[2] === 0xbf ? piece.subarray(3) : piece;
}
