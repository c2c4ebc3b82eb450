/**
 * The corpus as `substrings --min-tokens` searches it: every document's
 * normalized tokens (the tokens of `--against` and of word shingles,
 * src/text/tokenOffsets.ts: one tokenizer) interned to exact dictionary
 * numbers, back to back, and where each token's word lies in the corpus's
 * UTF-8 (CorpusText.bytes), so that spans found in tokens are reported and cut
 * in bytes. Pure and browser-safe.
 *
 * Memory: 12 bytes a token (its number and its word's two offsets) and the
 * distinct tokens' strings.
 */
import { DEFAULT_NORMALIZE, type NormalizeOptions } from '../text/normalize.js';
import { tokenOffsets } from '../text/tokenOffsets.js';
import type { CorpusTextBuilder } from './corpusText.js';

export interface TokenCorpus {
  /** Each token's number: equal numbers, equal tokens (the interning is one to one). */
  readonly ids: Int32Array;
  /** Global byte offset (into CorpusText.bytes) of each token's word, and just past it. */
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
  /** documents + 1 token offsets: document d has tokens [documentStarts[d], documentStarts[d + 1]). */
  readonly documentStarts: Float64Array;
  /** Distinct tokens. */
  readonly vocabulary: number;
}

/** Typed arrays that grow by doubling (the corpus's token count is known only at the end). */
function grown<T extends Int32Array | Uint32Array | Float64Array>(array: T, atLeast: number): T {
  if (atLeast <= array.length) return array;
  const bigger = new (array.constructor as new (n: number) => T)(Math.max(atLeast, array.length * 2));
  bigger.set(array);
  return bigger;
}

export class TokenCorpusBuilder {
  private readonly vocabulary = new Map<string, number>();
  private ids = new Int32Array(1024);
  private starts = new Uint32Array(1024);
  private ends = new Uint32Array(1024);
  private documentStarts = new Float64Array(1024);
  private tokens = 0;
  private documents = 0;

  constructor(readonly normalize: NormalizeOptions = DEFAULT_NORMALIZE) {}

  /** Appends one document: its UTF-8 to the corpus's text, its tokens here. */
  add(text: string, corpusText: CorpusTextBuilder): void {
    const byteBase = corpusText.bytes;
    corpusText.add(text);
    const located = tokenOffsets(text, this.normalize);
    const count = located.tokens.length;
    this.ids = grown(this.ids, this.tokens + count);
    this.starts = grown(this.starts, this.tokens + count);
    this.ends = grown(this.ends, this.tokens + count);
    this.documentStarts = grown(this.documentStarts, this.documents + 2);
    for (let i = 0; i < count; i++) {
      const token = located.tokens[i];
      let id = this.vocabulary.get(token);
      if (id === undefined) {
        id = this.vocabulary.size;
        this.vocabulary.set(token, id);
      }
      this.ids[this.tokens + i] = id;
      this.starts[this.tokens + i] = byteBase + located.starts[i];
      this.ends[this.tokens + i] = byteBase + located.ends[i];
    }
    this.tokens += count;
    this.documentStarts[++this.documents] = this.tokens;
  }

  /** The corpus's tokens (the builder's dictionary is let go). */
  finish(): TokenCorpus {
    const corpus: TokenCorpus = {
      ids: this.ids.slice(0, this.tokens),
      starts: this.starts.slice(0, this.tokens),
      ends: this.ends.slice(0, this.tokens),
      documentStarts: this.documentStarts.slice(0, this.documents + 1),
      vocabulary: this.vocabulary.size,
    };
    this.vocabulary.clear();
    return corpus;
  }
}
