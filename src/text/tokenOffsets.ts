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

/** The White_Space-delimited words of the text: code-unit and byte ranges, one entry per word in each array. */
interface Words {
  readonly from: number[];
  readonly to: number[];
  readonly start: number[];
  readonly end: number[];
}

/**
 * The words of the original text; with `lowered` (the text lowercased, as long), also whether lowering kept
 * White_Space where it was — then the tokens are `lowered`'s slices of the same ranges.
 */
function wordsOf(text: string, lowered = ''): { words: Words; aligned: boolean } {
  const words: Words = { from: [], to: [], start: [], end: [] };
  let aligned = lowered.length === text.length;
  let byte = 0;
  let from = -1;
  for (let i = 0; i <= text.length; i++) {
    const space = i === text.length || isWhiteSpace(text.charCodeAt(i));
    if (aligned && i < text.length && space !== isWhiteSpace(lowered.charCodeAt(i))) aligned = false;
    if (space && from >= 0) {
      words.to.push(i);
      words.end.push(byte);
      from = -1;
    } else if (!space && from < 0) {
      from = i;
      words.from.push(i);
      words.start.push(byte);
    }
    if (i < text.length) byte += utf8Length(text, i);
  }
  return { words, aligned };
}

export function tokenOffsets(text: string, options: NormalizeOptions = DEFAULT_NORMALIZE): TokenOffsets {
  const lowered = options.nfkc || options.stripPunctuation ? undefined : normalizeText(text, options);
  const { words, aligned } = wordsOf(text, lowered);
  // Lowercasing alone that kept every White_Space code unit in place:
  // the tokens are the words' ranges of the lowercased text.
  if (lowered !== undefined && aligned)
    return { tokens: words.from.map((f, w) => lowered.slice(f, words.to[w])), ...typed(words) };
  const tokens: string[] = [];
  const sources: number[] = [];
  words.from.forEach((f, w) => {
    for (const token of normalizeText(text.slice(f, words.to[w]), options).split(WHITE_SPACE_RUN)) {
      if (token.length === 0) continue;
      tokens.push(token);
      sources.push(w);
    }
  });
  const pick = (values: number[]): number[] => sources.map((w) => values[w]);
  return {
    tokens,
    ...typed({ from: pick(words.from), to: pick(words.to), start: pick(words.start), end: pick(words.end) }),
  };
}

function typed(words: Words): Omit<TokenOffsets, 'tokens'> {
  return {
    starts: Uint32Array.from(words.start),
    ends: Uint32Array.from(words.end),
    from: Uint32Array.from(words.from),
    to: Uint32Array.from(words.to),
  };
}
