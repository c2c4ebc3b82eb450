/**
 * A corpus with benchmark items planted in real text (the SPDX licences of data/sample.jsonl.gz): whole, paraphrased
 * by a few words, and split across a line wrap. Items are random runs of the licences' words, so they share no
 * 13-gram with the licences by chance; the planted overlaps are known by construction. Used by the planted-items test
 * and by bench/ngrams.bench.ts.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { rng } from '../test/support/reference.js';

export type Planting = 'whole' | 'paraphrased' | 'wrapped';

export interface Plant {
  readonly document: number;
  readonly reference: number;
  readonly planting: Planting;
  /** Word ranges of the item that appear unchanged and contiguous in the corpus document (paraphrase cuts it). */
  readonly keptRuns: readonly (readonly [number, number])[];
  /** The item's word count. */
  readonly words: number;
}

/**
 * The planted overlaps of n or more tokens: the kept runs, less the item's last word (followed by "?" in the
 * reference and by "." in the corpus, so a different token), as word ranges of the item.
 */
export function plantedOverlaps(plant: Plant, n: number): [number, number][] {
  return plant.keptRuns
    .map(([from, to]): [number, number] => [from, Math.min(to, plant.words - 1)])
    .filter(([from, to]) => to - from >= n);
}

export interface PlantedCorpus {
  readonly references: string[];
  /** Which benchmark file each reference belongs to (0 or 1). */
  readonly benchmarkOf: number[];
  readonly corpus: string[];
  readonly plants: Plant[];
}

export function sampleTexts(): string[] {
  return gunzipSync(readFileSync('data/sample.jsonl.gz'))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => (JSON.parse(line) as { text: string }).text);
}

function pick<T>(random: () => number, from: readonly T[]): T {
  return from[Math.floor(random() * from.length)];
}

/** A corpus of `documents` licences (repeated if needed), every third holding one planted item. */
export function plantedCorpus(seed: number, documents: number, items = 60): PlantedCorpus {
  const random = rng(seed);
  const texts = sampleTexts();
  const vocabulary = [
    ...new Set(
      texts
        .join(' ')
        .split(/\s+/)
        .filter((w) => /^[A-Za-z]{3,}$/.test(w)),
    ),
  ];
  const itemWords = Array.from({ length: items }, () =>
    Array.from({ length: 25 + Math.floor(random() * 40) }, () => pick(random, vocabulary)),
  );
  const references = itemWords.map((words, i) => `Question ${i}: ${words.join(' ')}?`);
  const benchmarkOf = references.map((_, i) => i % 2);
  const corpus: string[] = [];
  const plants: Plant[] = [];
  const plantings: Planting[] = ['whole', 'paraphrased', 'wrapped'];
  for (let d = 0; d < documents; d++) {
    const text = texts[d % texts.length];
    if (d % 3 !== 0) {
      corpus.push(text);
      continue;
    }
    const reference = Math.floor(random() * items);
    const planting = plantings[(d / 3) % 3];
    const words = [...itemWords[reference]];
    let keptRuns: [number, number][] = [[0, words.length]];
    if (planting === 'paraphrased') keptRuns = paraphrase(random, words, vocabulary);
    // Case changes and a line wrap are normalized away: the tokens stay the item's.
    let item = words.map((w, i) => (i % 7 === 3 ? w.toUpperCase() : w)).join(' ');
    if (planting === 'wrapped') {
      const at = nthSpace(item, Math.floor(words.length / 2));
      item = `${item.slice(0, at)}\n   ${item.slice(at + 1)}`;
    }
    const at = nthSpace(text, Math.floor(random() * 50));
    corpus.push(`${text.slice(0, at)} As asked on a forum: ${item}. ${text.slice(at)}`);
    plants.push({ document: d, reference, planting, keptRuns, words: words.length });
  }
  return { references, benchmarkOf, corpus, plants };
}

/** Replaces 2–4 words by others; returns the runs of the item's words left in place. */
function paraphrase(random: () => number, words: string[], vocabulary: readonly string[]): [number, number][] {
  const changed = new Set<number>();
  const count = 2 + Math.floor(random() * 3);
  while (changed.size < count) changed.add(Math.floor(random() * words.length));
  for (const i of changed) words[i] = `${pick(random, vocabulary)}x`; // no licence or item has this word
  const runs: [number, number][] = [];
  let from = 0;
  for (const i of [...changed].sort((a, b) => a - b)) {
    if (i > from) runs.push([from, i]);
    from = i + 1;
  }
  if (from < words.length) runs.push([from, words.length]);
  return runs;
}

/** The index of the n-th space (or the text's length when it has fewer). */
function nthSpace(text: string, n: number): number {
  let at = -1;
  for (let k = 0; k <= n; k++) {
    const next = text.indexOf(' ', at + 1);
    if (next < 0) return text.length;
    at = next;
  }
  return at;
}
