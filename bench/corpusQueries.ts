/**
 * Queries drawn from a JSONL corpus on disk without reading it whole: the
 * line after each of `count` seeded random byte offsets (issue 39 item 3
 * draws them from the 1 M documents the index holds). Deterministic for a
 * seed. Each query kind is built from those documents:
 *
 * - full: the document itself (half of them), or with one word in ten dropped
 *   (the other half: a near copy, J ≈ 0.5–0.6 on 5-word shingles);
 * - excerpt: a run of 20–200 words of it (containment);
 * - short: a run of 12–20 words of it (a short top-K query).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

export interface CorpusDocument {
  readonly id: string;
  readonly text: string;
}

/** A seeded linear congruential generator in [0, 1). */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 2 ** 32;
  };
}

/** `count` documents: the first whole line after each random offset of the files (in turn). */
export function sampleDocuments(files: readonly string[], count: number, seed = 39): CorpusDocument[] {
  const random = seeded(seed);
  const handles = files.map((path) => openSync(path, 'r'));
  const buffer = Buffer.alloc(1 << 20);
  const out: CorpusDocument[] = [];
  try {
    for (let i = 0; out.length < count && i < count * 4; i++) {
      const fd = handles[i % handles.length];
      const size = fstatSync(fd).size;
      const read = readSync(fd, buffer, 0, buffer.length, Math.floor(random() * Math.max(1, size - buffer.length)));
      const start = buffer.indexOf(10) + 1;
      const end = buffer.indexOf(10, start);
      if (start <= 0 || end < 0 || end > read) continue;
      out.push(JSON.parse(buffer.subarray(start, end).toString('utf8')) as CorpusDocument);
    }
  } finally {
    for (const fd of handles) closeSync(fd);
  }
  return out;
}

/** A run of `min`–`max` words of the text, at a random place. */
export function wordRun(text: string, min: number, max: number, random: () => number): string {
  const words = text.split(/\s+/).filter((w) => w.length > 0);
  const length = Math.min(words.length, min + Math.floor(random() * (max - min + 1)));
  const at = Math.floor(random() * (words.length - length + 1));
  return words.slice(at, at + length).join(' ');
}

/** The text with one word in ten (at random) dropped. */
export function nearCopy(text: string, random: () => number): string {
  return text
    .split(/\s+/)
    .filter(() => random() >= 0.1)
    .join(' ');
}

/** The query texts of each kind, from `documents` (deterministic). */
export function queryTexts(
  documents: readonly CorpusDocument[],
  seed = 7,
): Record<'full' | 'excerpt' | 'short', string[]> {
  const random = seeded(seed);
  return {
    full: documents.map((d, i) => (i % 2 === 0 ? d.text : nearCopy(d.text, random))),
    excerpt: documents.map((d) => wordRun(d.text, 20, 200, random)),
    short: documents.map((d) => wordRun(d.text, 12, 20, random)),
  };
}
