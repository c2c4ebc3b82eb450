import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { groupedPairs, textPairDecider, type TextPairRows, type TextWork } from '../../src/engines/textPairs.js';
import { decideSetPairs, shingleRanges, SetsAcross, type TextSource } from '../../src/engines/textSets.js';
import { textWorkInWorkers } from '../../src/engines/textWorkers.js';
import { DEFAULT_SHINGLE, shingleDocument } from '../../src/shingles/shingles.js';
import { exactAngular, exactJaccard } from '../../src/verify/exactJaccard.js';
import { tempDir } from '../support/tempDirs.js';

// 1,500 documents in families of near-duplicates (a word or two changed), as JSON lines in one file.
const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho'.split(' ');
const texts = Array.from({ length: 1500 }, (_, i) => {
  const family = Math.floor(i / 5);
  const base = Array.from({ length: 30 + (family % 40) }, (_, j) => words[(family * 7 + j * j) % words.length]);
  for (let c = 0; c < i % 5; c++) base[(c * 11 + family) % base.length] = `w${i}x${c}`;
  return `${base.join(' ')} "\u00e9\u4e2d" ${family}`;
});
const file = join(tempDir(), 'texts.jsonl');
const lines = texts.map((text, i) => `${JSON.stringify({ id: `d${i}`, text })}\n`);
writeFileSync(file, lines.join(''));
const starts = lines.map((_, i) => lines.slice(0, i).reduce((sum, line) => sum + Buffer.byteLength(line), 0));
const source: TextSource = {
  texts: { files: [{ path: file, size: 0, mtimeMs: 0 }] },
  shingle: DEFAULT_SHINGLE,
  read: { textField: 'text', idField: 'id' },
};
const sets = texts.map((text) => shingleDocument(text, DEFAULT_SHINGLE));

/** Rows as arrays (the engine gives typed ones). */
type Rows = Record<keyof TextPairRows, number[]>;

/** Pairs over documents [from, to): each with its next four (the family's near-duplicates) and one far away. */
function rowsOf(from: number, to: number): Rows {
  const [l, r] = [[] as number[], [] as number[]];
  for (let i = from; i < to; i++)
    for (const j of [i + 1, i + 2, i + 3, i + 4, (i * 7919) % texts.length])
      if (j < texts.length && j !== i) l.push(i), r.push(j);
  const at = (positions: number[], what: 'f' | 's' | 'b'): number[] =>
    positions.map((p) => (what === 'f' ? 0 : what === 's' ? starts[p] : Buffer.byteLength(lines[p])));
  return { l, r, xf: at(l, 'f'), xs: at(l, 's'), xb: at(l, 'b'), yf: at(r, 'f'), ys: at(r, 's'), yb: at(r, 'b') };
}

const rule = { acceptFrom: 128, rejectUpTo: 0, threshold: 0.6 };
const expected = (
  rows: Rows,
  measure = exactJaccard,
  threshold = rule.threshold,
  doc = (position: number): number => position,
): number[] => rows.l.map((x, i) => (measure(sets[doc(x)], sets[doc(rows.r[i])]) >= threshold ? 1 : 0));

describe('the exact pass on text ranges decides pairs as exact Jaccard of dedup’s sets does', () => {
  const { work, close } = textWorkInWorkers(source, 2);
  afterAll(close);

  it('on two workers: shingled in two runs, the pairs decided in two slices across both runs’ sets', async () => {
    const decide = textPairDecider(work);
    const first = rowsOf(0, 900); // 900 documents wanted, 4,500 pairs: past both workers' least shares
    const passed = await decide(first, rule);
    expect(Array.from(passed)).toEqual(expected(first));
    expect(passed.reduce((sum, p) => sum + p, 0)).toBeGreaterThan(200);
    expect(passed.reduce((sum, p) => sum + p, 0)).toBeLessThan(first.l.length - 500);
    // A second call meets documents read by the first and new ones: the sets are numbered across every part.
    const second = rowsOf(600, 1500);
    expect(Array.from(await decide(second, rule))).toEqual(expected(second));
    const angular = { ...rule, simhash: { cosineFloor: 0 } } as unknown as typeof rule;
    expect(Array.from(await decide(second, angular))).toEqual(expected(second, exactAngular));
  });

  it('past a memory budget, shingles the later runs into files, read back in file order: the same decisions', async () => {
    const dir = tempDir();
    const spills: string[] = [];
    // 2,000 bytes of sets: the first run's expected bytes pass it, so every run goes to a file of its own.
    const budget = { budgetBytes: 2000, tempDirectory: dir, onSpill: (_: number, at: string) => spills.push(at) };
    const spilling = textWorkInWorkers(source, 2, budget);
    try {
      const rows = rowsOf(0, 1500);
      expect(Array.from(await textPairDecider(spilling.work)(rows, rule))).toEqual(expected(rows));
      expect(spills).toHaveLength(1);
      expect(readdirSync(spills[0]).length).toBeGreaterThan(1);
    } finally {
      spilling.close();
    }
    expect(existsSync(spills[0])).toBe(false); // removed at close
    // Room for some runs: those held in shared memory and those in files, decided together.
    const some = textWorkInWorkers(source, 2, { ...budget, budgetBytes: 1 << 20 });
    try {
      const rows = rowsOf(0, 1500);
      expect(Array.from(await textPairDecider(some.work)(rows, rule))).toEqual(expected(rows));
      const angular = { ...rule, simhash: { cosineFloor: 0 } } as unknown as typeof rule;
      expect(Array.from(await textPairDecider(some.work)(rows, angular))).toEqual(expected(rows, exactAngular));
    } finally {
      some.close();
    }
  });

  it('in a file: each set as in shared memory', () => {
    const ranges = {
      file: new Int32Array(300),
      start: Float64Array.from(starts.slice(0, 300)),
      bytes: Float64Array.from(lines.slice(0, 300), (line) => Buffer.byteLength(line)),
    };
    const inFile = shingleRanges(source, ranges, undefined, undefined, join(tempDir(), 'sets.u32'));
    expect(inFile).toHaveLength(1);
    const across = new SetsAcross(inFile);
    try {
      for (let i = 0; i < 300; i++) expect(Array.from(across.set(i, (i % 2) as 0 | 1))).toEqual(Array.from(sets[i]));
    } finally {
      across.close();
    }
  });

  it('in small parts on this thread: each set found by its number across the parts', async () => {
    const partWords = 1000; // a few documents a part
    const inThread: TextWork = {
      shingle: async (ranges) => shingleRanges(source, ranges, partWords),
      decide: async (parts, pairs, setRule) => decideSetPairs(parts, pairs, setRule),
    };
    const rows = rowsOf(0, 1500);
    expect(Array.from(await textPairDecider(inThread)(rows, rule))).toEqual(expected(rows));
    // Positions are names, as shards make them (index × 2^32 + ordinal): the first call's small, the second's past
    // the first table's size and in two more shards; the same decisions.
    // Shards 1 and 3 (the second call's) have ordinals alike: 750,000 to 1,149,000.
    const name = (p: number): number => (p < 750 ? p : p < 1100 ? 2 ** 32 + 1000 * p : 3 * 2 ** 32 + 1000 * (p - 350));
    const named = (from: Rows, keep: (i: number) => boolean): Rows => {
      const kept = from.l.map((_, i) => i).filter(keep);
      const pick = (column: readonly number[], f = (x: number): number => x): number[] => kept.map((i) => f(column[i]));
      const [xf, xs, xb, yf, ys, yb] = [from.xf, from.xs, from.xb, from.yf, from.ys, from.yb].map((c) => pick(c));
      return { l: pick(from.l, name), r: pick(from.r, name), xf, xs, xb, yf, ys, yb };
    };
    const decideNamed = textPairDecider(inThread);
    const small = named(rows, (i) => rows.l[i] < 750 && rows.r[i] < 750);
    const all = named(rows, () => true);
    const unname = (p: number): number =>
      p < 750 ? p : p < 3 * 2 ** 32 ? (p - 2 ** 32) / 1000 : (p - 3 * 2 ** 32) / 1000 + 350;
    expect(Array.from(await decideNamed(small, rule))).toEqual(expected(small, exactJaccard, rule.threshold, unname));
    expect(Array.from(await decideNamed(all, rule))).toEqual(expected(rows));
    const ranges = {
      file: new Int32Array(300),
      start: Float64Array.from(starts.slice(0, 300)),
      bytes: Float64Array.from(lines.slice(0, 300), (line) => Buffer.byteLength(line)),
    };
    const parts = shingleRanges(source, ranges, partWords);
    expect(parts.length).toBeGreaterThan(10);
    const across = new SetsAcross(parts);
    expect(across.size).toBe(300);
    for (let i = 0; i < 300; i++) expect(Array.from(across.set(i))).toEqual(Array.from(sets[i]));
    expect(() => across.set(300)).toThrow(/no set 300/);
  });

  it('asks for the texts in file order whether the positions follow it (a shard reads in file order) or not', async () => {
    const asked: number[][] = [];
    const recording: TextWork = {
      shingle: async (ranges) => (asked.push(Array.from(ranges.start)), shingleRanges(source, ranges)),
      decide: async (parts, pairs, setRule) => decideSetPairs(parts, pairs, setRule),
    };
    const rows = rowsOf(0, 1500);
    const inFileOrder = (starts: number[]): boolean => starts.every((s, i) => i === 0 || starts[i - 1] < s);
    // Positions in file order, then reversed against it (the native sort's order is checked, the ranges sorted).
    const reversed = { ...rows, l: rows.l.map((p) => 5000 - p), r: rows.r.map((p) => 5000 - p) };
    expect(Array.from(await textPairDecider(recording)(rows, rule))).toEqual(expected(rows));
    expect(Array.from(await textPairDecider(recording)(reversed, rule))).toEqual(expected(rows));
    expect(asked.map((starts) => [starts.length, inFileOrder(starts)])).toEqual([
      [1500, true],
      [1500, true],
    ]);
  });

  it('reads ranges near each other in one block, and far apart, long or at the end of the file alone', () => {
    // Lines of 100 bytes to 1.5 MB: runs of short ones share a block; long gaps and a line past a block stand alone.
    const sizes = [100, 5, 40_000, 3, 1_500_000, 7, 20_000, 2, 300, 1, 60_000, 4];
    const big = sizes.map((size, i) => Array.from({ length: size }, (_, j) => `t${(i * 31 + j) % 97}`).join(' '));
    const bigLines = big.map((text, i) => `${JSON.stringify({ id: i, text })}\n`);
    const bigFile = join(tempDir(), 'big.jsonl');
    writeFileSync(bigFile, bigLines.join(''));
    const at = bigLines.map((_, i) => bigLines.slice(0, i).reduce((sum, line) => sum + Buffer.byteLength(line), 0));
    const bigSource = {
      ...source,
      texts: {
        files: [
          { path: file, size: 0, mtimeMs: 0 },
          { path: bigFile, size: 0, mtimeMs: 0 },
        ],
      },
    };
    for (const picked of [
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
      [1, 3, 5, 7, 9, 11],
      [0, 2, 4, 6, 8, 10],
      [5, 11],
    ]) {
      const ranges = {
        file: Int32Array.from(picked, () => 1),
        start: Float64Array.from(picked, (i) => at[i]),
        bytes: Float64Array.from(picked, (i) => Buffer.byteLength(bigLines[i])),
      };
      const across = new SetsAcross(shingleRanges(bigSource, ranges));
      picked.forEach((i, k) =>
        expect(Array.from(across.set(k))).toEqual(Array.from(shingleDocument(big[i], DEFAULT_SHINGLE))),
      );
    }
  });
});

describe('the exact pass shingles ranges through the first pass’s document kernel, as dedup does', () => {
  // Line ends of every kind, none at all (v3 ranges), lines the kernel hands back to JavaScript (an escaped key, an
  // id it does not take, a capital sigma), one past a unit, and a blank line no range may point at.
  const docs = Array.from({ length: 40 }, (_, i) => {
    const text = Array.from({ length: i === 17 ? 3000 : 20 + (i % 9) }, (_, j) => words[(i * 5 + j * 3) % 17]).join(
      ' ',
    );
    return { text: `${text} s${i}${i === 30 ? ' \u03a3' : ''} "\u00e9\u4e2d"`, i };
  });
  const json = docs.map(({ text, i }) =>
    i % 10 === 3
      ? `{"id":"e${i}","te\\u0078t":${JSON.stringify(text)}}`
      : i % 10 === 6
        ? `{"id":${i}.5e1,"text":${JSON.stringify(text)}}`
        : JSON.stringify({ id: `e${i}`, text }),
  );
  const ends = ['\n', '\r\n', '\r'];
  const bodies = json.map((line, i) => `${line}${ends[i % 3]}`);
  const kernelFile = join(tempDir(), 'kernel.jsonl');
  writeFileSync(kernelFile, `${bodies.join('')}\n  \n`);
  const at = bodies.map((_, i) => bodies.slice(0, i).reduce((sum, body) => sum + Buffer.byteLength(body), 0));
  const kernelSource = { ...source, texts: { files: [{ path: kernelFile, size: 0, mtimeMs: 0 }] } };
  const rangesOf = (picked: number[], withEnds: boolean) => ({
    file: new Int32Array(picked.length),
    start: Float64Array.from(picked, (i) => at[i]),
    bytes: Float64Array.from(picked, (i) => Buffer.byteLength(withEnds ? bodies[i] : json[i])),
  });

  it('gives dedup’s sets in range order, with or without line ends, cut into units of any size', () => {
    const picked = [0, 1, 2, 3, 5, 6, 7, 9, 11, 13, 16, 17, 18, 19, 23, 26, 30, 31, 36, 39];
    for (const withEnds of [true, false])
      for (const unitBytes of [1 << 20, 700, 1]) {
        const across = new SetsAcross(shingleRanges(kernelSource, rangesOf(picked, withEnds), 1 << 22, unitBytes));
        expect(across.size).toBe(picked.length);
        picked.forEach((i, k) =>
          expect(Array.from(across.set(k))).toEqual(Array.from(shingleDocument(docs[i].text, DEFAULT_SHINGLE))),
        );
      }
    // A setting the kernel does not have (auto picks word or char windows in TypeScript): the TypeScript path.
    const auto = { ...DEFAULT_SHINGLE, mode: 'auto' as const };
    const across = new SetsAcross(shingleRanges({ ...kernelSource, shingle: auto }, rangesOf(picked, true)));
    picked.forEach((i, k) =>
      expect(Array.from(across.set(k))).toEqual(Array.from(shingleDocument(docs[i].text, auto))),
    );
  });

  it('refuses a range that is not a document’s JSON line, naming its byte', () => {
    const blank = Buffer.byteLength(`${bodies.join('')}\n`);
    const ranges = {
      file: new Int32Array(2),
      start: Float64Array.from([at[0], blank]),
      bytes: Float64Array.from([3, 3]),
    };
    expect(() =>
      shingleRanges(kernelSource, { ...ranges, bytes: Float64Array.from([Buffer.byteLength(bodies[0]), 3]) }),
    ).toThrow(new RegExp(`byte ${blank}: not the JSON line`));
  });
});

describe('pairs grouped into runs that share a set', () => {
  it('gives every pair once, led by its set in more pairs, each lead’s pairs in one run', () => {
    // A star around 7, a chain 20 … 30, a pair repeated, pairs given either way round.
    const a = [7, 7, 3, 7, 20, 21, 22, 23, 9, 24, 25, 9, 7, 7];
    const b = [1, 2, 7, 4, 21, 22, 23, 24, 10, 25, 26, 10, 5, 6];
    const { order, grouped } = groupedPairs({ a: Uint32Array.from(a), b: Uint32Array.from(b) }, 40);
    expect(Array.from(order).sort((x, y) => x - y)).toEqual(a.map((_, i) => i));
    order.forEach((i, k) => expect(new Set([grouped.a[k], grouped.b[k]])).toEqual(new Set([a[i], b[i]])));
    expect(Array.from(grouped.a.subarray(0, 6))).toEqual([3, 7, 7, 7, 7, 7].map(() => 7));
    const leads = Array.from(grouped.a);
    expect(leads.filter((lead, k) => k > 0 && lead !== leads[k - 1] && leads.indexOf(lead) < k)).toEqual([]);
    expect(leads.filter((lead) => lead === 9)).toHaveLength(2); // its two pairs (9, 10): one run
  });

  it('with sets in files: a pair with one there led by the later such set, those leads in file order', () => {
    // Sets 20 … 39 lie in a file; 7's star stays led by 7 where its partner is held too.
    const a = [7, 7, 3, 7, 20, 21, 22, 23, 9, 24, 25, 9, 7, 7, 30, 35];
    const b = [1, 2, 7, 4, 21, 22, 23, 24, 10, 25, 26, 10, 5, 36, 2, 21];
    const inFile = new Uint8Array(40).fill(1, 20);
    const { order, grouped } = groupedPairs({ a: Uint32Array.from(a), b: Uint32Array.from(b) }, 40, inFile);
    expect(Array.from(order).sort((x, y) => x - y)).toEqual(a.map((_, i) => i));
    order.forEach((i, k) => {
      const [x, y] = [a[i], b[i]];
      expect(new Set([grouped.a[k], grouped.b[k]])).toEqual(new Set([x, y]));
      const later = Math.max(...[x, y].filter((s) => inFile[s] === 1));
      if (later >= 20) expect(grouped.a[k]).toBe(later);
    });
    expect(Array.from(grouped.a)).toEqual(Array.from(grouped.a).sort((x, y) => x - y));
    expect(Array.from(grouped.a.subarray(0, 4))).toEqual([7, 7, 7, 7]);
  });
});
