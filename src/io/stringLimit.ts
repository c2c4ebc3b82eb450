/**
 * The longest string JavaScript holds, and decoding refused past it. V8 (Node
 * and Chromium alike) caps a string at 2^29 − 24 UTF-16 code units
 * (536,870,888, just under 512 MiB of ASCII): past it Node's TextDecoder
 * throws, and Chromium's returns "" without a word, which turned a text file
 * over 512 MiB into one empty document. A platform limit is a refusal that
 * names the file and the limit, never a wrong result. Browser-safe.
 */
import { thousands } from '../format.js';
import { InputError } from './documents.js';

/** V8's `String::kMaxLength` on 64-bit hosts. */
export const MAX_STRING_LENGTH = 2 ** 29 - 24;

/**
 * `bytes` decoded, or an InputError naming `path` (and `line`) and the limit
 * when the text would not fit in one string. UTF-8 gives at most one code unit
 * a byte, so bytes within the limit always fit; past it, the text is checked:
 * a faithful decode gives at least one code unit per 4 bytes (a code point
 * takes at most 4 bytes, an invalid sequence at most 3 becomes one U+FFFD),
 * so a shorter result (Chromium's "") or a throw (Node's) is the limit.
 */
export function decodeWithin(
  decoder: TextDecoder,
  bytes: Uint8Array,
  path: string,
  line: number,
  limit = MAX_STRING_LENGTH,
): string {
  if (bytes.length <= limit) return decoder.decode(bytes);
  let text: string | undefined;
  try {
    text = decoder.decode(bytes);
  } catch {
    text = undefined; // Node: "Cannot create a string longer than 0x1fffffe8 characters"
  }
  if (text !== undefined && text.length <= limit && 4 * text.length >= bytes.length) return text;
  const what = line > 0 ? 'this line' : 'this file, one document,';
  throw new InputError(
    path,
    line,
    `${what} is ${thousands(bytes.length)} bytes, more text than one JavaScript string holds (${thousands(limit)} ` +
      `UTF-16 code units, about 512 MiB): split it into smaller documents`,
  );
}
