/**
 * Text normalization and tokenization, step 1 of the hash family.
 *
 * Order: NFKC (optional) → lowercase (Unicode default case mapping) →
 * punctuation and symbols to spaces (optional) → split on runs of Unicode
 * White_Space, dropping empty tokens. Both options are off by default.
 */

export interface NormalizeOptions {
  /** Apply Unicode NFKC before anything else (folds full-width forms, ligatures, ...). */
  readonly nfkc: boolean;
  /** Replace every Unicode punctuation (P*) and symbol (S*) character by a space. */
  readonly stripPunctuation: boolean;
}

export const DEFAULT_NORMALIZE: NormalizeOptions = { nfkc: false, stripPunctuation: false };

// \s in JavaScript also matches U+FEFF, which is not White_Space: name the property.
const WHITE_SPACE_RUN = /\p{White_Space}+/u;
const PUNCTUATION_OR_SYMBOL = /[\p{P}\p{S}]/gu;

export function normalizeText(text: string, options: NormalizeOptions = DEFAULT_NORMALIZE): string {
  let s = options.nfkc ? text.normalize('NFKC') : text;
  s = s.toLowerCase();
  if (options.stripPunctuation) s = s.replace(PUNCTUATION_OR_SYMBOL, ' ');
  return s;
}

/** The tokens of a document after normalization: never empty strings. */
export function tokenize(text: string, options: NormalizeOptions = DEFAULT_NORMALIZE): string[] {
  return normalizeText(text, options)
    .split(WHITE_SPACE_RUN)
    .filter((token) => token.length > 0);
}

const LONE_SURROGATE = /\p{Cs}/gu;

/**
 * The text the exact pre-pass compares (CLI and browser alike): the tokens
 * joined by single spaces, lone surrogates as U+FFFD as in its UTF-8 bytes;
 * '' for an empty document.
 */
export function normalizedForExactMatch(text: string, options: NormalizeOptions = DEFAULT_NORMALIZE): string {
  return tokenize(text, options).join(' ').replace(LONE_SURROGATE, '\ufffd');
}

/** Unicode White_Space (PropList.txt): 25 code points, all in the BMP. */
export function isWhiteSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0x85) return false;
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/**
 * Whether normalized text has a token (a code unit that is not White_Space): exactMatchUtf8 writes no byte otherwise.
 */
export function hasToken(normalized: string): boolean {
  for (let i = 0; i < normalized.length; i++) if (!isWhiteSpace(normalized.charCodeAt(i))) return true;
  return false;
}

/**
 * The UTF-8 bytes of normalizedForExactMatch for already normalized text —
 * tokens joined by single spaces, lone surrogates as U+FFFD — written into
 * `out` (at least 3 bytes per UTF-16 unit) in one loop, with no string or
 * token list built: the exact pre-pass hashes these for every document.
 */
export function exactMatchUtf8(normalized: string, out: Uint8Array): number {
  let at = 0;
  let space = false;
  for (let i = 0; i < normalized.length; i++) {
    let c = normalized.charCodeAt(i);
    if (isWhiteSpace(c)) {
      space = at > 0;
      continue;
    }
    if (space) {
      out[at++] = 0x20;
      space = false;
    }
    if (c < 0x80) out[at++] = c;
    else if (c < 0x800) {
      out[at++] = 0xc0 | (c >> 6);
      out[at++] = 0x80 | (c & 0x3f);
    } else {
      if (c >= 0xd800 && c <= 0xdfff) {
        const next = normalized.charCodeAt(i + 1);
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          i++;
          out[at++] = 0xf0 | (c >> 18);
          out[at++] = 0x80 | ((c >> 12) & 0x3f);
          out[at++] = 0x80 | ((c >> 6) & 0x3f);
          out[at++] = 0x80 | (c & 0x3f);
          continue;
        }
        c = 0xfffd;
      }
      out[at++] = 0xe0 | (c >> 12);
      out[at++] = 0x80 | ((c >> 6) & 0x3f);
      out[at++] = 0x80 | (c & 0x3f);
    }
  }
  return at;
}
