/**
 * signDocuments (the library's name; `sign --shard` signs through it): documents batched into
 * units of texts for the first pass, every document's row and set back in order, an empty
 * document's all-ones. Checked against each document shingled and signed alone on the CPU.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { signDocuments, type TextDocument } from '../../src/firstPass/signDocuments.js';
import { nodeFirstPassWorkers } from '../../src/firstPass/node/firstPassWorkers.js';
import { EMPTY_SLOT_WORD } from '../../src/signatures/backend.js';
import { CpuSigner, signBatchOnCpu } from '../../src/signatures/cpuSigner.js';
import { hashFamilyOf, makeParams, shingleOptionsOf } from '../../src/signatures/params.js';
import { pack } from '../../src/shingles/shingleBatch.js';
import { shingleDocument } from '../../src/shingles/shingles.js';

const sample = gunzipSync(readFileSync('data/sample.jsonl.gz'))
  .toString('utf8')
  .split('\n')
  .filter(Boolean)
  .slice(0, 30);
const texts = [
  ...sample.map((line) => (JSON.parse(line) as { text: string }).text),
  '',
  '   ',
  'one',
  'two words',
  'ΣΑΣ İstanbul',
  '',
];
const documents: (TextDocument & { n: number })[] = texts.map((text, n) => ({ text, n }));

async function signedAlone(
  params: ReturnType<typeof makeParams>,
  signer: Parameters<typeof signDocuments>[1],
  batchDocuments: number,
  keepSets: boolean,
) {
  const family = hashFamilyOf(params);
  const shingle = shingleOptionsOf(params);
  const order: number[] = [];
  for await (const batch of signDocuments(documents, signer, { shingle, batchDocuments, keepSets })) {
    expect(batch.signatures.length).toBe(batch.documents.length * 2 * params.k);
    expect(batch.sets.length).toBe(keepSets ? batch.documents.length : 0);
    expect(batch.shingles).toBe(batch.documents.reduce((n, d) => n + shingleDocument(d.text, shingle).length / 2, 0));
    batch.documents.forEach((d, i) => {
      order.push(d.n);
      const set = shingleDocument(d.text, shingle);
      const row = batch.signatures.subarray(i * 2 * params.k, (i + 1) * 2 * params.k);
      if (set.length === 0)
        expect(
          [...row].every((w) => w === EMPTY_SLOT_WORD),
          `document ${d.n}`,
        ).toBe(true);
      else expect([...row], `document ${d.n}`).toEqual([...signBatchOnCpu(family, pack([set]))]);
      if (keepSets) expect([...batch.sets[i]], `set of ${d.n}`).toEqual([...set]);
    });
  }
  return order;
}

describe('signDocuments on the first pass', () => {
  it('with a bare backend (this thread): every document, in order, its row and set as signed alone', async () => {
    const params = makeParams({ k: 16 });
    const backend = new CpuSigner(hashFamilyOf(params));
    expect(await signedAlone(params, backend, 4, true)).toEqual(documents.map((d) => d.n));
  });

  it("with the run's workers signing on the CPU (two threads), char shingles, no sets asked for", async () => {
    const params = makeParams({ k: 8, shingle: 'char', n: 4 });
    const family = hashFamilyOf(params);
    const backend = new CpuSigner(family);
    const workers = nodeFirstPassWorkers(2);
    try {
      const signer = { backend, workers, cpu: { kernel: 'wasm-simd' as const, family } };
      expect(await signedAlone(params, signer, 7, false)).toEqual(documents.map((d) => d.n));
    } finally {
      workers.destroy();
    }
  });
});
