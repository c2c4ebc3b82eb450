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

/** The largest chunk of tokens while reading (the first ones are smaller, for small corpora). */
const CHUNK_TOKENS = 1 << 20;

/** Tokens as read, in chunks: the corpus's count is known only at the end, then one array of each is filled. */
interface Chunk {
  readonly ids: Int32Array;
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
  used: number;
}

const newChunk = (size: number): Chunk => ({
  ids: new Int32Array(size),
  starts: new Uint32Array(size),
  ends: new Uint32Array(size),
  used: 0,
});

export class TokenCorpusBuilder {
  private readonly vocabulary = new Map<string, number>();
  private chunks: Chunk[] = [];
  private last = newChunk(1024);
  private documentStarts: number[] = [0];
  private tokens = 0;

  constructor(readonly normalize: NormalizeOptions = DEFAULT_NORMALIZE) {}

  /** Appends one document: its UTF-8 to the corpus's text, its tokens here. */
  add(text: string, corpusText: CorpusTextBuilder): void {
    const byteBase = corpusText.bytes;
    corpusText.add(text);
    const located = tokenOffsets(text, this.normalize);
    for (let i = 0; i < located.tokens.length; i++) {
      const token = located.tokens[i];
      let id = this.vocabulary.get(token);
      if (id === undefined) {
        id = this.vocabulary.size;
        this.vocabulary.set(token, id);
      }
      if (this.last.used === this.last.ids.length) {
        this.chunks.push(this.last);
        this.last = newChunk(Math.min(CHUNK_TOKENS, 2 * this.last.ids.length));
      }
      const { ids, starts, ends } = this.last;
      ids[this.last.used] = id;
      starts[this.last.used] = byteBase + located.starts[i];
      ends[this.last.used++] = byteBase + located.ends[i];
    }
    this.tokens += located.tokens.length;
    this.documentStarts.push(this.tokens);
  }

  /** The corpus's tokens, each chunk let go once copied (so the peak is the tokens and one chunk). */
  finish(): TokenCorpus {
    const corpus: TokenCorpus = {
      ids: new Int32Array(this.tokens),
      starts: new Uint32Array(this.tokens),
      ends: new Uint32Array(this.tokens),
      documentStarts: Float64Array.from(this.documentStarts),
      vocabulary: this.vocabulary.size,
    };
    const chunks = [...this.chunks, this.last];
    this.chunks = [];
    this.last = newChunk(0);
    let at = 0;
    for (let chunk = chunks.shift(); chunk !== undefined; chunk = chunks.shift()) {
      corpus.ids.set(chunk.ids.subarray(0, chunk.used), at);
      corpus.starts.set(chunk.starts.subarray(0, chunk.used), at);
      corpus.ends.set(chunk.ends.subarray(0, chunk.used), at);
      at += chunk.used;
    }
    this.documentStarts = [];
    this.vocabulary.clear();
    return corpus;
  }
}
