// The README's library examples, run as written (imports from the package entry point).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import {
  DEDUP_WEIGHTS,
  hashFamilyOf,
  makeParams,
  optimalParams,
  pack,
  resolveBackend,
  runDedup,
  shingleDocument,
  shingleOptionsOf,
  signBatchOnCpu,
} from '../src/index.js';
import { tempDir } from './support/cli.js';

it('signs texts in memory, as in the README', async () => {
  const texts = ['the quick brown fox jumps over the lazy dog', 'the quick brown fox jumped over the lazy dog', ''];
  // --- README example: signing ---
  const params = makeParams({ k: 128 }); // seed 42, word 5-grams, 64-bit slots
  const family = hashFamilyOf(params);
  const sets = texts.map((text) => shingleDocument(text, shingleOptionsOf(params)));
  const { backend, notes } = await resolveBackend('cpu', family); // or 'auto' / 'webgpu'
  const words = await backend.sign(pack(sets)); // texts.length × k slots, (lo, hi) words per slot
  backend.destroy();
  // --- end ---
  expect(notes[0]).toMatch(/^cpu: chosen/);
  expect(words).toEqual(signBatchOnCpu(family, pack(sets)));
  expect(words.length).toBe(3 * 128 * 2);
});

it('deduplicates files, as in the README', async () => {
  const dir = tempDir();
  const file = join(dir, 'corpus.jsonl');
  const base = 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty';
  writeFileSync(file, [base, base.replace('seven', 'SEVEN'), base + ' twentyone', 'something else entirely, not like the others at all']
    .map((text, i) => JSON.stringify({ id: `d${i}`, text })).join('\n') + '\n');
  // --- README example: dedup ---
  const params = makeParams();
  const outcome = await runDedup({
    inputs: [file],
    read: { textField: 'text', idField: 'id', skipInvalid: false },
    params,
    backend: 'cpu',
    threshold: 0.8,
    lsh: optimalParams(0.8, params.k, DEDUP_WEIGHTS),
    verify: 'estimate',
    clusterCheck: 'none',
    keep: { kind: 'first' },
    against: [],
  });
  const { cluster, kept, counts } = outcome.assignment; // per input document, in order
  // --- end ---
  expect(counts.exactDuplicates).toBe(1); // 'SEVEN' lowercases to the same text
  expect(Array.from(kept)).toEqual([1, 0, 0, 1]);
  expect(cluster[0]).toBe(cluster[2]);
  expect(cluster[3]).not.toBe(cluster[0]);
});
