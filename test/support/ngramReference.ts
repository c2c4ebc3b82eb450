import type { NgramSpan } from '../../src/substrings/ngramOverlap.js';

/**
 * The brute-force reference: for every pair of documents and every alignment (offset between positions), the
 * maximal runs of equal tokens, compared string by string; a run of at least n tokens is a span.
 */
export function bruteForceSpans(
  corpus: readonly string[],
  references: readonly (readonly string[])[],
  n: number,
): NgramSpan[] {
  const spans: NgramSpan[] = [];
  references.forEach((ref, reference) => {
    for (let offset = -corpus.length; offset <= ref.length; offset++) {
      let run = 0;
      for (let i = Math.max(0, -offset); i <= corpus.length; i++) {
        const j = i + offset;
        const equal = i < corpus.length && j < ref.length && corpus[i] === ref[j];
        if (equal) {
          run++;
          continue;
        }
        if (run >= n) spans.push({ reference, start: i - run, end: i, referenceStart: j - run, referenceEnd: j });
        run = 0;
        if (j >= ref.length) break;
      }
    }
  });
  return spans.sort((a, b) => a.start - b.start || a.reference - b.reference || a.referenceStart - b.referenceStart);
}
