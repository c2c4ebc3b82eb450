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
