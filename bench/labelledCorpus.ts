/**
 * A seeded, labelled corpus with planted near-duplicates for bench/qualityWeighted.ts (issue 41, item 4).
 *
 * Bases are 16 sentences of 8–15 pseudo-words drawn Zipf-like from a 20 000-word vocabulary (common words repeat,
 * as in text). Two in five bases are boilerplate-heavy: a 250-word preamble (one of two "licence blocks", each
 * shared by a fifth of the bases and their variants) then a 60-word body of their own; two such documents share
 * most of their shingles (set Jaccard ≈ 0.6–0.7) but are not duplicates. Every base has six planted variants:
 *
 * - sub1, sub3, sub5: 1 %, 3 %, 5 % of the words replaced (word 5-gram Jaccard to the base ≈ 0.9, 0.75, 0.6);
 * - insert: 5 % more words, inserted in runs of 1–3 at random places;
 * - reorder: two swaps of adjacent sentences;
 * - far: 20 % of the words replaced (Jaccard ≈ 0.2), a rewrite rather than a copy.
 *
 * Plus unrelated documents (plain bases with no variants). Order shuffled.
 *
 * **Labelling rule.** A document's label group is its base's family when it is the base or a variant planted with
 * an edit rate ≤ 5 % (sub1, sub3, sub5, insert, reorder); a far variant and an unrelated document are groups of
 * their own. A pair is a true near-duplicate when both documents are in the same group: sharing a preamble never
 * makes one.
 */
import { rng } from '../test/support/reference.js';

export interface LabelledDocument {
  readonly id: string;
  readonly text: string;
  /** The label group (see the rule above). */
  readonly group: number;
  /** How it was planted: base, sub1, sub3, sub5, insert, reorder, far or unrelated; boilerplate bases' kin say so. */
  readonly kind: string;
  /** Its base's position in the output (itself for a base or an unrelated document). */
  readonly base: number;
}

export interface LabelledCorpusShape {
  readonly bases: number;
  readonly unrelated: number;
  readonly seed?: number;
}

interface Words {
  readonly next: () => number;
  readonly word: () => string;
}

function makeWords(seed: number): Words {
  const next = rng(seed);
  const consonants = 'bcdfghklmnprstvz';
  const vowels = 'aeiou';
  const syllable = (): string =>
    consonants[Math.floor(next() * consonants.length)] + vowels[Math.floor(next() * vowels.length)];
  const vocabulary = Array.from({ length: 20_000 }, () =>
    Array.from({ length: 1 + Math.floor(next() * 3) }, syllable).join(''),
  );
  // Zipf-like: index ⌊V^u⌋ − 1 for uniform u, so word i is drawn about as often as 1 / (i + 1).
  const word = (): string => vocabulary[Math.floor(vocabulary.length ** next()) - 1];
  return { next, word };
}

function sentences(words: Words, count: number): string[][] {
  return Array.from({ length: count }, () => Array.from({ length: 8 + Math.floor(words.next() * 8) }, words.word));
}

const flat = (s: readonly string[][]): string[] => s.flat();

function substitute(words: Words, text: readonly string[], rate: number): string[] {
  const out = text.slice();
  const m = Math.max(1, Math.round(rate * out.length));
  for (let i = 0; i < m; i++) out[Math.floor(words.next() * out.length)] = words.word();
  return out;
}

function insert(words: Words, text: readonly string[], rate: number): string[] {
  const out = text.slice();
  let left = Math.max(1, Math.round(rate * text.length));
  while (left > 0) {
    const run = Math.min(left, 1 + Math.floor(words.next() * 3));
    out.splice(Math.floor(words.next() * (out.length + 1)), 0, ...Array.from({ length: run }, words.word));
    left -= run;
  }
  return out;
}

function reorder(words: Words, parts: readonly string[][], swaps: number): string[] {
  const out = parts.slice();
  for (let s = 0; s < swaps; s++) {
    const i = Math.floor(words.next() * (out.length - 1));
    [out[i], out[i + 1]] = [out[i + 1], out[i]];
  }
  return flat(out);
}

/** The base's text as sentences: a preamble's (as one block, never reordered) and its own. */
function baseSentences(words: Words, preambles: readonly string[][], b: number): string[][] {
  const boilerplate = b % 5 < 2;
  if (!boilerplate) return sentences(words, 16);
  return [preambles[b % 5], ...sentences(words, 5)];
}

export function labelledCorpus(shape: LabelledCorpusShape): LabelledDocument[] {
  const words = makeWords(shape.seed ?? 41);
  const preambles = [0, 1].map(() => flat(sentences(words, 22)).slice(0, 250));
  const docs: { text: string; group: number; kind: string; family: number }[] = [];
  let group = 0;
  for (let b = 0; b < shape.bases; b++) {
    const parts = baseSentences(words, preambles, b);
    const base = flat(parts);
    const family = group++;
    const tag = b % 5 < 2 ? ' (boilerplate)' : '';
    const add = (text: string[], kind: string, g = family): void => {
      docs.push({ text: text.join(' '), group: g, kind: kind + tag, family });
    };
    add(base, 'base');
    for (const rate of [0.01, 0.03, 0.05]) add(substitute(words, base, rate), `sub${Math.round(rate * 100)}`);
    add(insert(words, base, 0.05), 'insert');
    add(reorder(words, parts, 2), 'reorder');
    add(substitute(words, base, 0.2), 'far', group++);
  }
  for (let u = 0; u < shape.unrelated; u++) {
    const g = group++;
    docs.push({ text: flat(sentences(words, 16)).join(' '), group: g, kind: 'unrelated', family: g });
  }
  for (let i = docs.length - 1; i > 0; i--) {
    const j = Math.floor(words.next() * (i + 1));
    [docs[i], docs[j]] = [docs[j], docs[i]];
  }
  const baseAt = new Map<number, number>();
  docs.forEach((d, i) => {
    if (d.kind.startsWith('base') || d.kind === 'unrelated') baseAt.set(d.family, i);
  });
  return docs.map((d, i) => ({ id: `q${i}`, text: d.text, group: d.group, kind: d.kind, base: baseAt.get(d.family)! }));
}
