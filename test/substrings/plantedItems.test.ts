import { describe, expect, it } from 'vitest';
import { tokenize } from '../../src/text/normalize.js';
import { tokenOffsets } from '../../src/text/tokenOffsets.js';
import { NgramDecontaminator, cutSpans, type ContaminatedSpan } from '../../src/substrings/ngramDecontamination.js';
import { bruteForceSpans } from '../support/ngramReference.js';
import { plantedCorpus, plantedOverlaps } from '../../bench/plantedItems.js';

const N = 13;
const planted = plantedCorpus(32, 90);
const decontaminator = new NgramDecontaminator(N);
for (const text of planted.references) decontaminator.addReference(text);
const reported = planted.corpus.map((text) => decontaminator.spansOf(text));

/** Whether `inner` occurs as a contiguous run in `outer`. */
function containsRun(outer: readonly string[], inner: readonly string[]): boolean {
  starts: for (let i = 0; i + inner.length <= outer.length; i++) {
    for (let k = 0; k < inner.length; k++) if (outer[i + k] !== inner[k]) continue starts;
    return true;
  }
  return false;
}

/** The text's UTF-8 without the union of the spans' byte ranges: cutSpans's reference. */
function cutBytes(text: string, spans: readonly ContaminatedSpan[]): string {
  const bytes = Buffer.from(text);
  const cut = new Uint8Array(bytes.length);
  for (const s of spans) cut.fill(1, s.start, s.end);
  return Buffer.from(bytes.filter((_, i) => cut[i] === 0)).toString();
}

const bytesOf = (text: string, start: number, end: number): string => Buffer.from(text).subarray(start, end).toString();

describe('n-gram decontamination on planted benchmark items (issue 32 target)', () => {
  it('plants whole, paraphrased and line-wrapped items', () => {
    expect(planted.plants.map((p) => p.planting).filter((p) => p === 'whole').length).toBe(10);
    expect(planted.plants.filter((p) => p.planting === 'paraphrased').length).toBe(10);
    expect(planted.plants.filter((p) => p.planting === 'wrapped').length).toBe(10);
  });

  it('recalls every planted 13-gram overlap: each unchanged run of 13+ item words is in a reported span', () => {
    let runs = 0;
    for (const plant of planted.plants) {
      const itemWords = tokenize(planted.references[plant.reference]).slice(2); // after "question i:"
      for (const [from, end] of plantedOverlaps(plant, N)) {
        const words = itemWords.slice(from, end);
        const spans = reported[plant.document].filter((s) => s.reference === plant.reference);
        expect(spans.some((s) => containsRun(tokenize(s.text), words))).toBe(true);
        runs++;
      }
    }
    expect(runs).toBeGreaterThanOrEqual(35); // whole and wrapped items give one run each, paraphrased ones one or more
  });

  it('reports exactly the brute-force overlaps of every document (all 13-token windows compared directly)', () => {
    const referenceTokens = planted.references.map((text) => tokenize(text));
    planted.corpus.forEach((text, d) => {
      const located = tokenOffsets(text);
      const expected = bruteForceSpans(located.tokens, referenceTokens, N).map((s) => [
        s.reference,
        located.starts[s.start],
        located.ends[s.end - 1],
      ]);
      expect(reported[d].map((s) => [s.reference, s.start, s.end])).toEqual(expected);
    });
    // No licence matches by chance.
    expect(reported.filter((spans) => spans.length > 0).length).toBe(planted.plants.length);
  });

  it('makes no false report: every span is the same 13+ tokens in the corpus bytes and the reference bytes', () => {
    let spans = 0;
    reported.forEach((list, d) => {
      for (const span of list) {
        const corpusTokens = tokenize(bytesOf(planted.corpus[d], span.start, span.end));
        expect(bytesOf(planted.corpus[d], span.start, span.end)).toBe(span.text);
        expect(corpusTokens.length).toBeGreaterThanOrEqual(N);
        expect(corpusTokens.length).toBe(span.tokens);
        expect(tokenize(bytesOf(planted.references[span.reference], span.referenceStart, span.referenceEnd))).toEqual(
          corpusTokens,
        );
        spans++;
      }
    });
    expect(spans).toBeGreaterThanOrEqual(35);
  });

  it('cuts the spans: what is left shares no 13-gram with any reference', () => {
    planted.corpus.forEach((text, d) => {
      const { text: cut, removed } = cutSpans(text, reported[d]);
      expect(cut).toBe(cutBytes(text, reported[d]));
      expect(Buffer.byteLength(text) - removed).toBe(Buffer.byteLength(cut));
      expect(decontaminator.spansOf(cut)).toEqual([]);
      if (reported[d].length === 0) expect(cut).toBe(text);
    });
  });
});

describe('ngramOverlaps (the library entry, from the package entry point)', () => {
  it("gives the decontaminator's spans for every document, numbered; checks options as the CLI does", async () => {
    const { ngramOverlaps } = await import('../../src/index.js');
    const found = ngramOverlaps(planted.corpus, planted.references);
    expect(found).toEqual(reported.flatMap((spans, document) => spans.map((span) => ({ document, ...span }))));
    expect(ngramOverlaps(['a b c d'], ['x a b c d y'], { minTokens: 4 }).map((s) => s.text)).toEqual(['a b c d']);
    expect(ngramOverlaps(['a b c'], ['a b c'], { minTokens: 4 })).toEqual([]);
    expect(() => ngramOverlaps([], [], { minTokens: 0 })).toThrow(
      'minTokens must be an integer from 1 to 100000, got 0',
    );
    expect(() => ngramOverlaps([], [], { minToken: 5 } as never)).toThrow(
      'ngramOverlaps has no option "minToken"; its options are minTokens, normalize',
    );
  });

  it('decontaminateDocuments: each document after remove, cut or report, in the shape substrings() gives', async () => {
    const { decontaminateDocuments } = await import('../../src/index.js');
    const contaminated = new Set(planted.plants.map((p) => p.document));
    const removed = decontaminateDocuments(planted.corpus, planted.references);
    expect(removed.documents.map((d) => d.dropped)).toEqual(planted.corpus.map((_, d) => contaminated.has(d)));
    expect(removed.documents.map((d) => d.text)).toEqual(planted.corpus);
    expect(removed.spans.length).toBe(reported.flat().length);
    const cut = decontaminateDocuments(planted.corpus, planted.references, { action: 'cut' });
    cut.documents.forEach((d, i) => {
      expect(d.id).toBe(String(i));
      expect(d.text).toBe(cutBytes(planted.corpus[i], reported[i]));
      expect(d.bytesCut).toBe(Buffer.byteLength(planted.corpus[i]) - Buffer.byteLength(d.text));
      expect(d.dropped).toBe(false);
    });
    const everything = decontaminateDocuments(planted.corpus, planted.references, { action: 'cut', minRemaining: 1e9 });
    expect(everything.documents.map((d) => d.dropped)).toEqual(planted.corpus.map((_, d) => contaminated.has(d)));
    const report = decontaminateDocuments(planted.corpus, planted.references, { action: 'report' });
    expect(report.documents.every((d, i) => !d.dropped && d.text === planted.corpus[i])).toBe(true);
    expect(() => decontaminateDocuments([], [], { action: 'drop' as never })).toThrow(
      'action must be one of remove, cut or report, got "drop"',
    );
  });
});
