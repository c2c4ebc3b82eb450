// The library examples of README.md and docs/library.md, run as written (imports from the package entry point).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import {
  createMinHasher,
  dedup,
  makeParams,
  minhash,
  runDedup,
  optimalParams,
  DEDUP_WEIGHTS,
  signBatchOnCpu,
  hashFamilyOf,
  pack,
  shingleDocument,
  shingleOptionsOf,
} from '../src/index.js';
import { tempDir } from './support/cli.js';

const texts = [
  'the quick brown fox jumps over the lazy dog and runs far away into the woods',
  'the quick brown fox jumps over the lazy dog and runs far away into the wood',
  '',
  'The quick brown fox jumps over the lazy dog and runs far away into the woods',
  'an entirely different document, about nothing in particular at all',
];

it("the README's quick start", async () => {
  // --- README example ---
  const texts = [
    'the quick brown fox jumps over the lazy dog and runs far away into the woods',
    'The quick brown fox jumps over the lazy dog and runs far away into the wood', // a near-duplicate of the first
    'an entirely different document, about nothing in particular at all',
  ];
  const { slots, k } = await minhash(texts, { k: 128 }); // texts.length × k slots, a BigUint64Array
  const { assignment } = await dedup(texts, { threshold: 0.8 }); // exactly as `gpudedup dedup` decides
  const kept = texts.filter((_, d) => assignment.kept[d] === 1); // one document per cluster: the first and the third
  // --- end ---
  expect(slots).toBeInstanceOf(BigUint64Array);
  expect(slots.length).toBe(texts.length * k);
  expect(kept).toEqual([texts[0], texts[2]]);
});

it('signs and deduplicates in memory, as in docs/library.md', async () => {
  // --- docs/library.md example ---
  // One shot: a BigUint64Array of texts.length × k slots (Uint32Array with slotBits: 32).
  const { slots, k } = await minhash(texts, { k: 128 }); // seed 42, word 5-grams; backend 'auto' | 'cpu' | 'webgpu'

  // Reusable: the same backend for every call, released by destroy().
  const hasher = await createMinHasher({ k: 128, backend: 'cpu' });
  try {
    const batch = await hasher.sign(texts); // equal to minhash(texts) with the same options
    console.log(hasher.backend, batch.rows);
    expect(batch.slots).toEqual(slots);
  } finally {
    hasher.destroy(); // a Dawn device keeps a core busy until then
  }

  // In-memory dedup: strings or { id, text, record } objects.
  const { assignment } = await dedup(texts, { threshold: 0.8 });
  const kept = texts.filter((_, d) => assignment.kept[d] === 1); // one document per cluster, in input order
  // --- end ---

  const params = makeParams({ k: 128 });
  const sets = texts.map((text) => shingleDocument(text, shingleOptionsOf(params)));
  expect(new Uint32Array(slots.buffer)).toEqual(signBatchOnCpu(hashFamilyOf(params), pack(sets)));
  expect(k).toBe(128);
  expect(slots[2 * k]).toBe(2n ** 64n - 1n); // the empty document: every slot all-ones
  expect(kept).toEqual([texts[0], texts[2], texts[4]]); // 1 is a near-duplicate of 0, 3 an exact one
  expect(assignment.counts.exactDuplicates).toBe(1);
});

it('minhash gives 32-bit slots as a Uint32Array, the low words of the 64-bit ones', async () => {
  const wide = await minhash(texts, { k: 16, backend: 'cpu' });
  const narrow = await minhash(texts, { k: 16, slotBits: 32, backend: 'cpu' });
  expect(narrow.slots).toBeInstanceOf(Uint32Array);
  expect(Array.from(narrow.slots as Uint32Array)).toEqual(
    Array.from(wide.slots as BigUint64Array, (x) => Number(x & 0xffffffffn)),
  );
});

it('dedup in memory equals runDedup over the same documents in a file', async () => {
  const dir = tempDir();
  const file = join(dir, 'corpus.jsonl');
  writeFileSync(file, texts.map((text, i) => JSON.stringify({ id: String(i), text })).join('\n') + '\n');
  const params = makeParams();
  const outcome = await runDedup({
    inputs: [file],
    read: { textField: 'text', idField: 'id', skipInvalid: false },
    params,
    backend: 'cpu',
    threshold: 0.8,
    lsh: optimalParams(0.8, params.k, DEDUP_WEIGHTS),
    verify: 'exact',
    clusterCheck: 'representative',
    keep: { kind: 'longest' },
    against: [],
  });
  const memory = await dedup(texts, {
    backend: 'cpu',
    verify: 'exact',
    clusterCheck: 'representative',
    keep: { kind: 'longest' },
  });
  expect(Array.from(memory.assignment.kept)).toEqual(Array.from(outcome.assignment.kept));
  expect(Array.from(memory.assignment.cluster)).toEqual(Array.from(outcome.assignment.cluster));
});
