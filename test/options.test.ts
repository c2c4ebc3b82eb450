/**
 * The options table (src/options.ts) and the library's use of it: every bad
 * value is refused before any work, with the message the CLI and the tab give.
 */
import { describe, expect, it } from 'vitest';
import { createMinHasher, dedup, minhash } from '../src/api.js';
import { checkDedupSettings } from '../src/dedup/dedupSigned.js';
import {
  BYTES_PER_THREAD,
  CLUSTER_CHECKS,
  defaultThreads,
  OPTIONS,
  SLOT_BITS,
  VERIFY_MODES,
  type OptionName,
} from '../src/options.js';
import { runDedup } from '../src/pipeline/dedup/dedup.js';
import { testDedupConfig } from './support/dedupConfig.js';

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Sixty distinct words, and the same with one more: Jaccard of their 5-gram shingles 56/57, near-duplicates. */
const words = Array.from({ length: 60 }, (_, i) => `w${i}x${(i * 7919) % 1000}`);
const short = words.join(' ');
const long = `${short} tail`;

describe('the options table', () => {
  it('names each option by its flag in camelCase (n is the short flag -n of --ngram), and its default passes its own check', () => {
    for (const [key, spec] of Object.entries(OPTIONS)) {
      expect(spec.name).toBe(key);
      expect(spec.flag).toBe(key === 'n' ? '--ngram' : `--${kebab(key)}`);
      if (spec.default !== undefined) expect(spec.check(spec.default)).toEqual(spec.default);
    }
    expect(OPTIONS.verify.choices).toEqual(VERIFY_MODES);
    expect(OPTIONS.clusterCheck.choices).toEqual(CLUSTER_CHECKS);
    expect(OPTIONS.slotBits.choices).toEqual(SLOT_BITS.map(String));
  });

  it('the defaults the docs document', () => {
    const defaults = Object.fromEntries(Object.entries(OPTIONS).map(([key, spec]) => [key, spec.default]));
    expect(defaults).toMatchObject({
      k: 128,
      seed: '42',
      n: 5,
      shingle: 'word',
      scheme: 'classic',
      slotBits: 64,
      backend: 'auto',
      threshold: 0.8,
      verify: 'hybrid',
      clusterCheck: 'representative',
      chainDelta: 0.1,
      maxRepresentatives: 8,
      estimateError: 0.001,
      maxBucketPairs: 16,
      batchSize: 2048,
      fpWeight: 0.1,
      fnWeight: 0.9,
      textField: 'text',
      idField: 'id',
      minLength: 100,
      cut: 'later',
      minRemaining: 1,
    });
    expect(defaults.keep).toEqual({ kind: 'first' });
  });

  it('one message per bad value, "NAME must be RULE, got VALUE", from text and from values alike', () => {
    const cases: [OptionName, unknown, string][] = [
      ['k', 100000, 'k must be an integer from 1 to 4096, got 100000'],
      ['k', 2.5, 'k must be an integer from 1 to 4096, got 2.5'],
      ['threshold', 1.5, 'threshold must be a number strictly between 0 and 1, got 1.5'],
      ['threshold', 0, 'threshold must be a number strictly between 0 and 1, got 0'],
      ['backend', 'gpu', 'backend must be one of auto, cpu or webgpu, got "gpu"'],
      ['verify', 'exactt', 'verify must be one of hybrid, estimate, exact or none, got "exactt"'],
      [
        'scheme',
        'minhash',
        'scheme must be one of classic, oph, simhash, datasketch-affine32, datasketch-affine64 or datasketch-legacy, got "minhash"',
      ],
      ['slotBits', 3, 'slotBits must be one of 1, 2, 4, 8, 16, 32 or 64, got 3'],
      ['chainDelta', 1, 'chainDelta must be a number from 0 up to (not including) 1, got 1'],
      ['maxBucketPairs', 0, 'maxBucketPairs must be a positive integer, got 0'],
      ['keep', 'shortest', 'keep must be first, longest or field:NAME, got "shortest"'],
      ['keep', 'field:', 'keep must be first, longest or field:NAME, got "field:"'],
      ['seed', '0x1g', 'seed must be a 64-bit unsigned integer (decimal or 0x hex), got "0x1g"'],
      ['textField', '', 'textField must be a field or column name, got ""'],
    ];
    for (const [name, value, message] of cases) {
      expect(() => OPTIONS[name].check(value), `${name} ${String(value)}`).toThrow(message);
      if (typeof value === 'number') expect(() => OPTIONS[name].parse(String(value))).toThrow(message);
    }
    expect(() => OPTIONS.k.parse('')).toThrow('k must be an integer from 1 to 4096, got ""'); // an empty field is not 0
    expect(() => OPTIONS.top.parse('abc')).toThrow('top must be an integer from 1 to 10000, got "abc"'); // not "got NaN" (issue 31)
    expect(OPTIONS.slotBits.parse('32')).toBe(32);
    expect(OPTIONS.keep.parse('field:quality')).toEqual({ kind: 'field', field: 'quality' });
    expect(OPTIONS.keep.check({ kind: 'longest' })).toEqual({ kind: 'longest' });
  });

  it('the in-memory core refuses bad settings however it is reached (the backstop behind every front end)', () => {
    const good = {
      threshold: 0.8,
      lsh: { bands: 2, rows: 4 },
      verify: 'hybrid',
      clusterCheck: 'representative',
    } as const;
    expect(() => checkDedupSettings(good, 128)).not.toThrow();
    expect(() => checkDedupSettings({ ...good, threshold: 1.5 }, 128)).toThrow(
      'threshold must be a number strictly between 0 and 1, got 1.5',
    );
    expect(() => checkDedupSettings({ ...good, verify: 'exactt' as 'exact' }, 128)).toThrow(/verify must be one of/);
    expect(() => checkDedupSettings({ ...good, lsh: { bands: 20, rows: 7 } }, 128)).toThrow(
      /exceeds the signature length k = 128/,
    );
  });

  it('runDedup (the pipeline over files) checks them before reading any file: no ENOENT for a missing input', async () => {
    const config = testDedupConfig(['no-such-input.jsonl']);
    await expect(runDedup({ ...config, threshold: 1.5 })).rejects.toThrow(
      'threshold must be a number strictly between 0 and 1, got 1.5',
    );
    await expect(runDedup({ ...config, maxBucketPairs: 0 })).rejects.toThrow(
      'maxBucketPairs must be a positive integer, got 0',
    );
    await expect(runDedup(config)).rejects.toThrow(/no-such-input/);
  });
});

describe('defaultThreads: the default --threads', () => {
  it('one per core, but no more than one per MiB of input; one per core when the size is unknown', () => {
    expect(BYTES_PER_THREAD).toBe(2 ** 20);
    expect(defaultThreads(8, 0)).toBe(1);
    expect(defaultThreads(8, 5_000)).toBe(1);
    expect(defaultThreads(8, 2 ** 20)).toBe(1);
    expect(defaultThreads(8, 2 ** 20 + 1)).toBe(2);
    expect(defaultThreads(8, 3 * 2 ** 20)).toBe(3);
    expect(defaultThreads(8, 2 ** 30)).toBe(8);
    expect(defaultThreads(1, 2 ** 30)).toBe(1);
    expect(defaultThreads(8, undefined)).toBe(8);
  });
});

describe('the library refuses what the CLI refuses, before any work', () => {
  it('a misspelled backend, an out-of-range k, an unknown option', async () => {
    await expect(createMinHasher({ backend: 'gpu' as 'cpu' })).rejects.toThrow(
      'backend must be one of auto, cpu or webgpu, got "gpu"',
    );
    await expect(minhash(['a b c d e'], { k: 100000, backend: 'cpu' })).rejects.toThrow(
      'k must be an integer from 1 to 4096, got 100000',
    );
    await expect(minhash(['a b c d e'], { threads: 0, backend: 'cpu' })).rejects.toThrow(
      'threads must be a positive integer, got 0',
    );
    await expect(minhash(['a b c d e'], { ngram: 3, backend: 'cpu' } as never)).rejects.toThrow(
      /createMinHasher has no option "ngram"; its options are scheme, weights, idf, seed, k, shingle, n,/,
    );
    await expect(dedup([short], { treshold: 0.5, backend: 'cpu' } as never)).rejects.toThrow(
      /dedup has no option "treshold"/,
    );
  });

  it('the threshold on every path (with bands × rows given too), verify, the cluster check and its δ', async () => {
    await expect(dedup([short, long], { threshold: 1.5, lsh: { bands: 2, rows: 4 }, backend: 'cpu' })).rejects.toThrow(
      'threshold must be a number strictly between 0 and 1, got 1.5',
    );
    await expect(dedup([short, long], { verify: 'exactt' as 'exact', backend: 'cpu' })).rejects.toThrow(
      'verify must be one of hybrid, estimate, exact or none, got "exactt"',
    );
    await expect(dedup([short, long], { clusterCheck: 'all' as 'none', backend: 'cpu' })).rejects.toThrow(
      /clusterCheck must be representative or none/,
    );
    await expect(dedup([short, long], { chainDelta: 1, backend: 'cpu' })).rejects.toThrow(
      /chainDelta must be a number from 0 up to/,
    );
    await expect(dedup([short, long], { lsh: { bands: 20, rows: 7 }, backend: 'cpu' })).rejects.toThrow(
      /exceeds the signature length k = 128/,
    );
    await expect(dedup([short, long], { keep: 'shortest', backend: 'cpu' })).rejects.toThrow(
      'keep must be first, longest or field:NAME, got "shortest"',
    );
  });

  it("keep: 'longest' (the CLI's spelling) keeps the longest, as { kind: 'longest' } does", async () => {
    const spelled = await dedup([short, long], { keep: 'longest', backend: 'cpu', threads: 1 });
    const policy = await dedup([short, long], { keep: { kind: 'longest' }, backend: 'cpu', threads: 1 });
    const first = await dedup([short, long], { backend: 'cpu', threads: 1 });
    expect(Array.from(spelled.assignment.kept)).toEqual([0, 1]);
    expect(Array.from(policy.assignment.kept)).toEqual([0, 1]);
    expect(Array.from(first.assignment.kept)).toEqual([1, 0]);
    const field = await dedup(
      [
        { id: 'a', text: short, record: { q: 1 } },
        { id: 'b', text: long, record: { q: 0 } },
      ],
      { keep: 'field:q', backend: 'cpu', threads: 1 },
    );
    expect(Array.from(field.assignment.kept)).toEqual([1, 0]);
  });

  it('duplicate ids, naming both indexes (a string document is named by its index, which may meet a real id)', async () => {
    await expect(
      dedup(
        [
          { id: 'a', text: short },
          { id: 'b', text: long },
          { id: 'a', text: 'other words here and there' },
        ],
        { backend: 'cpu' },
      ),
    ).rejects.toThrow('documents[2]: id "a" repeats the id of documents[0]; ids must be unique');
    await expect(dedup([{ id: '1', text: short }, long], { backend: 'cpu' })).rejects.toThrow(
      'documents[1]: id "1" repeats the id of documents[0]',
    );
    const fine = await dedup([short, long, { id: 'x', text: 'something else entirely, five words or more' }], {
      backend: 'cpu',
      threads: 1,
    });
    expect(fine.assignment.kept.length).toBe(3);
  });

  it('the renamed options reach the core: maxBucketPairs and estimateError change what they should', async () => {
    // 40 near-duplicates share buckets: past 16 members a bucket pairs each with the first; with 64 all 780 pairs.
    const docs = Array.from({ length: 40 }, (_, i) => `${short} v${i}`);
    const star = await dedup(docs, { backend: 'cpu', threads: 1, verify: 'estimate', maxBucketPairs: 16 });
    const all = await dedup(docs, { backend: 'cpu', threads: 1, verify: 'estimate', maxBucketPairs: 64 });
    expect(star.candidateStats.bigBuckets).toBeGreaterThan(0);
    expect(all.candidateStats.bigBuckets).toBe(0);
    expect(all.verified.candidates).toBeGreaterThan(star.verified.candidates);
    expect(Array.from(all.assignment.kept)).toEqual(Array.from(star.assignment.kept));
    await expect(dedup(docs, { backend: 'cpu', estimateError: 0 })).rejects.toThrow(
      'estimateError must be a number strictly between 0 and 1, got 0',
    );
  });
});
