/**
 * The tokens of `tokenize` (normalize.ts) with where each came from: the byte
 * offsets, in the original text's UTF-8, of the White_Space-delimited word of
 * the original text that produced it. With the default options a token is its
 * word lowercased, so the offsets are the token's own; when NFKC or
 * --strip-punctuation splits one word into several tokens ("don't" → "don",
 * "t"), each carries the offsets of the whole word.
 *
 * Normalizing word by word gives the tokens of normalizing the whole text:
 * NFKC never composes across a White_Space character (a starter that
 * composes with nothing), lowercasing's one context rule (final sigma) stops
 * at White_Space, and no White_Space character normalizes to anything else.
 * tokenOffsets.test.ts checks the equality on random texts.
 */
import { isWhiteSpace, normalizeText, type NormalizeOptions, DEFAULT_NORMALIZE } from './normalize.js';

export interface TokenOffsets {
  /** Exactly `tokenize(text, options)`. */
  readonly tokens: string[];
  /** Byte offset of each token's word in the UTF-8 of the text (lone surrogates as U+FFFD, 3 bytes). */
  readonly starts: Uint32Array;
  /** Byte offset just past each token's word. */
  readonly ends: Uint32Array;
  /** The same word's range in UTF-16 code units (to slice the text). */
  readonly from: Uint32Array;
  readonly to: Uint32Array;
}

const WHITE_SPACE_RUN = /\p{White_Space}+/u;

/** UTF-8 length of the code unit at `i` (a surrogate pair counts 4 on its high half, 0 on its low half). */
function utf8Length(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0x80) return 1;
  if (c < 0x800) return 2;
  if (c >= 0xd800 && c <= 0xdbff) {
    const next = text.charCodeAt(i + 1);
    return next >= 0xdc00 && next <= 0xdfff ? 4 : 3;
  }
  if (c >= 0xdc00 && c <= 0xdfff) {
    const previous = i > 0 ? text.charCodeAt(i - 1) : 0;
    return previous >= 0xd800 && previous <= 0xdbff ? 0 : 3;
  }
  return 3;
}

interface Word {
  /** Code-unit range in the text. */
  readonly from: number;
  readonly to: number;
  /** Byte range in its UTF-8. */
  readonly start: number;
  readonly end: number;
}

/** The White_Space-delimited words of the original text, with code-unit and byte ranges. */
function wordsOf(text: string): Word[] {
  const words: Word[] = [];
  let byte = 0;
  let from = -1;
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    const space = i === text.length || isWhiteSpace(text.charCodeAt(i));
    if (space && from >= 0) {
      words.push({ from, to: i, start, end: byte });
      from = -1;
    } else if (!space && from < 0) {
      from = i;
      start = byte;
    }
    if (i < text.length) byte += utf8Length(text, i);
  }
  return words;
}

export function tokenOffsets(text: string, options: NormalizeOptions = DEFAULT_NORMALIZE): TokenOffsets {
  const words = wordsOf(text);
  const whole = options.nfkc || options.stripPunctuation ? undefined : normalizeText(text, options);
  // Lowercasing alone that kept every code unit in place: the tokens are the words' ranges of the lowercased text.
  if (whole !== undefined && whole.length === text.length && sameWhiteSpace(text, whole)) {
    return { tokens: words.map((w) => whole.slice(w.from, w.to)), ...ranges(words) };
  }
  const tokens: string[] = [];
  const sources: Word[] = [];
  for (const word of words) {
    for (const token of normalizeText(text.slice(word.from, word.to), options).split(WHITE_SPACE_RUN)) {
      if (token.length === 0) continue;
      tokens.push(token);
      sources.push(word);
    }
  }
  return { tokens, ...ranges(sources) };
}

function ranges(words: readonly Word[]): Omit<TokenOffsets, 'tokens'> {
  return {
    starts: Uint32Array.from(words, (w) => w.start),
    ends: Uint32Array.from(words, (w) => w.end),
    from: Uint32Array.from(words, (w) => w.from),
    to: Uint32Array.from(words, (w) => w.to),
  };
}

function sameWhiteSpace(a: string, b: string): boolean {
  for (let i = 0; i < a.length; i++) if (isWhiteSpace(a.charCodeAt(i)) !== isWhiteSpace(b.charCodeAt(i))) return false;
  return true;
}
