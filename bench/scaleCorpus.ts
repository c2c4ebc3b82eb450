/**
 * A generated real-text corpus for the scale runs (bench/scale.ts): JSON
 * Lines documents of 1–3 KB cut from the words of the bundled SPDX licences
 * (data/sample.jsonl.gz), with planted exact and near duplicates.
 *
 *   node dist/bench/scaleCorpus.js DOCUMENTS OUT.jsonl [--part I/P] [--seed N]
 *
 * With --part, OUT gets documents [(I−1)·D/P, I·D/P) only, so P processes
 * write the P parts of one corpus side by side (a directory of them is read
 * in name order). Every document is a function of (seed, its index) alone:
 *   35 % base documents: 150–450 words taken as runs of 8–40 consecutive
 *        words from random places in the licence text, so two bases rarely
 *        share a 5-word shingle beyond the licences' own boilerplate;
 *   20 % exact duplicates of an earlier base, upper-cased with doubled
 *        spaces, so only normalization makes them equal;
 *   45 % near duplicates of an earlier base: 0.3–3 % of its words replaced,
 *        deleted or inserted (Jaccard of the 5-gram sets ≈ 0.75–0.97).
 * One copy in twenty copies one of the first 32 bases ("templates"), which
 * makes band buckets of thousands of members at 10 M documents.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { rng } from '../test/support/reference.js';
import { loadSampleCorpus } from './corpus.js';

export interface ScaleCorpusStats {
  readonly documents: number;
  readonly bytes: number;
  readonly bases: number;
  readonly exactCopies: number;
  readonly nearCopies: number;
}

/** The random stream of document `index` (a murmur-style mix of seed and index). */
function documentRandom(seed: number, index: number): () => number {
  let h = Math.imul(index ^ 0x9e3779b9, 0x85ebca6b) ^ seed;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return rng((h ^ (h >>> 16)) >>> 0);
}

const BASE = 0.35;
const EXACT = 0.55;
const TEMPLATES = 32;

/** The words of the bundled licences, in order. */
export function licenceWords(): string[] {
  // From dist/bench/ (compiled) the repository's data/ is two levels up: callable from any directory.
  return loadSampleCorpus(fileURLToPath(new URL('../../data/sample.jsonl.gz', import.meta.url)))
    .map((d) => d.text)
    .join(' ')
    .split(/\s+/)
    .filter((w) => w.length > 0);
}

export class Generator {
  constructor(
    private readonly words: readonly string[],
    private readonly seed: number,
  ) {}

  isBase(index: number): boolean {
    return index === 0 || documentRandom(this.seed, index)() < BASE;
  }

  baseWords(index: number): string[] {
    const random = documentRandom(this.seed, index);
    random(); // its kind
    const { words } = this;
    const length = 150 + Math.floor(random() * 300);
    const out: string[] = [];
    while (out.length < length) {
      const run = 8 + Math.floor(random() * 33);
      const start = Math.floor(random() * (words.length - run));
      for (let i = 0; i < run && out.length < length; i++) out.push(words[start + i]);
    }
    return out;
  }

  /** An earlier base for copy `index`: a template one time in twenty, else any earlier base. */
  private baseOf(index: number, random: () => number): number {
    for (let tries = 0; tries < 64; tries++) {
      const bound = random() < 0.05 ? Math.min(index, TEMPLATES / BASE) : index;
      const j = Math.floor(random() * bound);
      if (this.isBase(j)) return j;
    }
    return 0;
  }

  document(index: number): { text: string; kind: 'base' | 'exact' | 'near' } {
    const random = documentRandom(this.seed, index);
    const kind = index === 0 ? 0 : random();
    if (kind < BASE) return { text: this.baseWords(index).join(' '), kind: 'base' };
    const base = this.baseWords(this.baseOf(index, random));
    if (kind < EXACT) return { text: base.join('  ').toUpperCase(), kind: 'exact' };
    return { text: this.nearCopy(base, random).join(' '), kind: 'near' };
  }

  private nearCopy(base: readonly string[], random: () => number): string[] {
    const { words } = this;
    const rate = 0.003 + random() * 0.027;
    const out: string[] = [];
    for (const word of base) {
      const r = random();
      if (r >= rate) out.push(word);
      else if (r < rate / 3)
        continue; // deleted
      else if (r < (2 * rate) / 3)
        out.push(words[Math.floor(random() * words.length)]); // replaced
      else out.push(word, words[Math.floor(random() * words.length)]); // inserted after
    }
    return out;
  }
}

/** Writes documents [from, to) of the corpus of `documents`. */
export async function writeScaleCorpus(path: string, from: number, to: number, seed = 1): Promise<ScaleCorpusStats> {
  const generator = new Generator(licenceWords(), seed);
  const counts = { base: 0, exact: 0, near: 0 };
  let bytes = 0;
  const out = createWriteStream(path, { highWaterMark: 1 << 22 });
  for (let i = from; i < to; i++) {
    const { text, kind } = generator.document(i);
    counts[kind]++;
    const line = `${JSON.stringify({ id: `doc-${i}`, text })}\n`;
    bytes += Buffer.byteLength(line);
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return { documents: to - from, bytes, bases: counts.base, exactCopies: counts.exact, nearCopies: counts.near };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [documents, path] = process.argv.slice(2);
  const option = (name: string): string | undefined => {
    const at = process.argv.indexOf(name);
    return at > 0 ? process.argv[at + 1] : undefined;
  };
  if (documents === undefined || path === undefined) {
    console.error('usage: node dist/bench/scaleCorpus.js DOCUMENTS OUT.jsonl [--part I/P] [--seed N]');
    process.exit(2);
  }
  const total = Number(documents);
  const [part, parts] = (option('--part') ?? '1/1').split('/').map(Number);
  const started = performance.now();
  const stats = await writeScaleCorpus(
    path,
    Math.floor(((part - 1) * total) / parts),
    Math.floor((part * total) / parts),
    Number(option('--seed') ?? 1),
  );
  console.log(JSON.stringify({ ...stats, seconds: Number(((performance.now() - started) / 1000).toFixed(1)) }));
}
