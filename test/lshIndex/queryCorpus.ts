/**
 * Corpora for top-K and containment tests, and their brute-force answers
 * computed here on word 5-gram string sets (independent of the index's
 * hashing): lowercase words separated by single spaces shingle the same.
 */

/** A seeded PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

export const words = (random: () => number, n: number): string[] =>
  Array.from({ length: n }, () => `w${Math.floor(random() * 20000).toString(36)}`);

/** `base` with each word replaced with probability p. */
export const mutate = (random: () => number, base: readonly string[], p: number): string[] =>
  base.map((w) => (random() < p ? words(random, 1)[0] : w));

export function shingles(text: string, n = 5): Set<string> {
  const w = text.split(' ').filter((x) => x !== '');
  const out = new Set<string>();
  for (let i = 0; i + n <= w.length; i++) out.add(w.slice(i, i + n).join(' '));
  if (w.length > 0 && w.length < n) out.add(w.join(' '));
  return out;
}

export function common(a: Set<string>, b: Set<string>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let c = 0;
  for (const x of small) if (large.has(x)) c++;
  return c;
}

export const jaccard = (a: Set<string>, b: Set<string>): number => {
  const c = common(a, b);
  return c / (a.size + b.size - c);
};

/**
 * Clusters of near-duplicates at Jaccard ≈ 0.2–0.95 of their base: `clusters`
 * bases of 150–300 words, `members` indexed variants each and `queries` query
 * variants each, words replaced with probability 0.01–0.2.
 */
export function nearCorpus(
  seed: number,
  clusters: number,
  members: number,
  queries: number,
): { indexed: string[]; queries: string[] } {
  const random = rng(seed);
  const indexed: string[] = [];
  const asked: string[] = [];
  for (let c = 0; c < clusters; c++) {
    const base = words(random, 150 + Math.floor(random() * 150));
    for (let m = 0; m < members; m++) indexed.push(mutate(random, base, 0.01 + 0.19 * random()).join(' '));
    for (let q = 0; q < queries; q++) asked.push(mutate(random, base, 0.01 + 0.1 * random()).join(' '));
  }
  return { indexed, queries: asked };
}

/** Of each query's true `k` nearest by exact Jaccard, those at `floor` or above: the share of them `found` holds. */
export function recallAtK(
  truth: readonly number[][],
  found: readonly (readonly number[])[],
  k: number,
  floor: number,
): number {
  let wanted = 0;
  let hit = 0;
  truth.forEach((row, q) => {
    const order = row
      .map((j, i) => ({ j, i }))
      .sort((a, b) => b.j - a.j)
      .slice(0, k)
      .filter((x) => x.j >= floor);
    const got = new Set(found[q]);
    wanted += order.length;
    hit += order.filter((x) => got.has(x.i)).length;
  });
  return wanted === 0 ? 1 : hit / wanted;
}

/**
 * Short items planted inside longer documents: `hosts` documents of
 * [minHost, maxHost] words, each holding `perHost` items of [minItem, maxItem]
 * words at random places; queries are the items, a third of them with a word
 * in ten replaced, and `strays` items planted nowhere.
 */
export function plantedItems(
  seed: number,
  o: { hosts: number; perHost: number; host: [number, number]; item: [number, number]; strays: number },
): { hosts: string[]; items: string[] } {
  const random = rng(seed);
  const between = ([lo, hi]: [number, number]): number => lo + Math.floor(random() * (hi - lo + 1));
  const hosts: string[] = [];
  const items: string[] = [];
  for (let h = 0; h < o.hosts; h++) {
    const host = words(random, between(o.host));
    for (let i = 0; i < o.perHost; i++) {
      const item = words(random, between(o.item));
      host.splice(Math.floor(random() * host.length), 0, ...item);
      items.push((items.length % 3 === 2 ? mutate(random, item, 0.1) : item).join(' '));
    }
    hosts.push(host.join(' '));
  }
  for (let s = 0; s < o.strays; s++) items.push(words(random, between(o.item)).join(' '));
  return { hosts, items };
}

export interface Doc {
  readonly id: string;
  readonly text: string;
}

/** Fisher–Yates, in place. */
function shuffle<T>(random: () => number, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

/**
 * Issue 39's dense families (its Python script, on this PRNG): per query, 170
 * words from 5,000; 3 texts with one word changed, 5 copies each (Jaccard
 * 0.9415), and `lower` texts with one word and the last changed, 4 copies each
 * (0.9302); every document shuffled.
 */
export function familyCorpus(seed: number, lower: number, queries: number): { indexed: Doc[]; queries: Doc[] } {
  const random = rng(seed);
  const below = (n: number): number => Math.floor(random() * n);
  const replaced = (words: readonly string[], at: number): string[] =>
    words.map((w, i) => (i === at ? `new${String(below(100_000)).padStart(5, '0')}` : w));
  const indexed: Doc[] = [];
  const asked: Doc[] = [];
  for (let t = 0; t < queries; t++) {
    const q = Array.from({ length: 170 }, () => `w${String(below(5000)).padStart(4, '0')}`);
    asked.push({ id: `q${t}`, text: q.join(' ') });
    for (let a = 0; a < 3; a++) {
      const text = replaced(q, 20 + below(131)).join(' ');
      for (let c = 0; c < 5; c++) indexed.push({ id: `t${t}-A${a}-${c}`, text });
    }
    for (let b = 0; b < lower; b++) {
      const text = replaced(replaced(q, 20 + below(131)), 169).join(' ');
      for (let c = 0; c < 4; c++) indexed.push({ id: `t${t}-B${b}-${c}`, text });
    }
  }
  return { indexed: shuffle(random, indexed), queries: asked };
}

/**
 * Windows of one query of n + 4 words (n word 5-grams): document i holds
 * sizes[i] consecutive shingles of it, at a random place, so its Jaccard with
 * the query is sizes[i]/n exactly (n = 1,000: steps of 0.001), and windows of
 * one size are distinct sets (no two nested), so their estimates err apart.
 */
export function windowCopies(seed: number, n: number, sizes: readonly number[]): { indexed: Doc[]; query: string } {
  const random = rng(seed);
  const query = words(random, n + 4);
  const indexed = sizes.map((size, i) => {
    const at = Math.floor(random() * (n - size + 1));
    return { id: String(i), text: query.slice(at, at + size + 4).join(' ') };
  });
  return { indexed: shuffle(random, indexed), query: query.join(' ') };
}

/**
 * Copies of one query of 992 words (988 word 5-grams) with three runs of words
 * cut out, run lengths summing to cut[i], each run well inside its third of
 * the text: a cut of d words removes d + 4 shingles and adds 4, so document i
 * has Jaccard (976 − cut[i])/1000 with the query (steps of 0.001), and
 * documents of one value miss different shingles, so their estimates err
 * independently (windows of one text would err together).
 */
export function cutCopies(seed: number, cut: readonly number[]): { indexed: Doc[]; query: string } {
  const random = rng(seed);
  const third = 330;
  const query = words(random, 3 * third + 2);
  const indexed = cut.map((total, i) => {
    const a = 1 + Math.floor(random() * (total - 2));
    const b = 1 + Math.floor(random() * (total - a - 1));
    const runs = [a, b, total - a - b];
    const kept = runs.flatMap((d, r) => {
      const from = r * third;
      const at = from + 5 + Math.floor(random() * (third - 10 - d));
      return [...query.slice(r === 0 ? 0 : from, at), ...query.slice(at + d, r === 2 ? query.length : from + third)];
    });
    return { id: String(i), text: kept.join(' ') };
  });
  return { indexed: shuffle(random, indexed), query: query.join(' ') };
}
