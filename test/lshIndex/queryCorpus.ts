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
