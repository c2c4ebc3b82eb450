/**
 * dedupDocuments (in memory: the browser app's path) against runDedup (files
 * streamed: the CLI's) on the same documents. They share the exact pre-pass
 * and dedupSigned, but not the reading, batching and exact-set loading, so
 * counts, clusters, kept flags, pairs and reference matches must agree.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEDUP_WEIGHTS, optimalParams } from '../../src/bands/lshParams.js';
import {
  dedupDocuments,
  dedupDocumentStream,
  type InMemoryDocument,
  type StageWorkerPool,
} from '../../src/dedup/dedupDocuments.js';
import { nodeStageWorkers } from '../../src/dedup/node/stageWorkers.js';
import type { VerifyMode } from '../../src/verify/verification.js';
import { DEFAULT_READ } from '../../src/io/documents.js';
import { runDedup } from '../../src/pipeline/dedup/dedup.js';
import { CpuSigner } from '../../src/signatures/cpuSigner.js';
import { hashFamilyOf, makeParams, shingleOptionsOf } from '../../src/signatures/params.js';
import { tempDir } from '../support/cli.js';

const params = makeParams({ k: 64 });

async function both(documents: InMemoryDocument[], against: InMemoryDocument[], verify: VerifyMode) {
  const dir = tempDir();
  const write = (name: string, docs: InMemoryDocument[]): string => {
    const path = join(dir, name);
    writeFileSync(path, docs.map((d) => JSON.stringify({ id: d.id, text: d.text })).join('\n') + '\n');
    return path;
  };
  const lsh = optimalParams(0.8, params.k, DEDUP_WEIGHTS);
  const settings = { threshold: 0.8, verify, clusterCheck: 'representative', keep: { kind: 'longest' }, lsh } as const;
  const inputs = [write('corpus.jsonl', documents)];
  const reference = against.length > 0 ? [write('reference.jsonl', against)] : [];
  const cli = await runDedup({ inputs, read: DEFAULT_READ, params, backend: 'cpu', against: reference, ...settings });
  const backend = new CpuSigner(hashFamilyOf(params));
  try {
    const memory = await dedupDocuments(documents, {
      ...settings,
      backend,
      shingle: shingleOptionsOf(params),
      slotBits: params.slotBits,
      against: against.length > 0 ? against : undefined, // as the CLI without --against (an empty set is refused)
    });
    return { cli, memory };
  } finally {
    backend.destroy();
  }
}

function expectSameResults(
  cli: Awaited<ReturnType<typeof both>>['cli'],
  memory: Awaited<ReturnType<typeof both>>['memory'],
): void {
  expect(memory.assignment.counts).toEqual(cli.assignment.counts);
  expect([...memory.assignment.cluster]).toEqual([...cli.assignment.cluster]);
  expect([...memory.assignment.kept]).toEqual([...cli.assignment.kept]);
  expect([...memory.verified.a]).toEqual([...cli.verified.a]);
  expect([...memory.verified.b]).toEqual([...cli.verified.b]);
  expect(memory.contamination?.match).toEqual(cli.contamination?.match);
}

describe('dedupDocuments against runDedup', () => {
  it('refuses a repeated id, naming both places, as the CLI does', async () => {
    const backend = new CpuSigner(hashFamilyOf(params));
    try {
      const documents = [
        { id: 'x', text: 'one two three four five six' },
        { id: 'y', text: 'other words here' },
        { id: 'x', text: 'seven eight nine ten' },
      ];
      const settings = {
        threshold: 0.8,
        verify: 'estimate',
        clusterCheck: 'representative',
        keep: { kind: 'first' },
        lsh: { bands: 16, rows: 4 },
      } as const;
      await expect(
        dedupDocuments(documents, {
          ...settings,
          backend,
          shingle: shingleOptionsOf(params),
          slotBits: params.slotBits,
        }),
      ).rejects.toThrow(/documents:3: id "x" repeats the id of documents:1/);
    } finally {
      backend.destroy();
    }
  });

  it('groups exact duplicates as the CLI does, lone surrogates included', async () => {
    const documents = [
      { id: 'a', text: 'alpha beta \ud800 gamma delta epsilon zeta eta' },
      { id: 'b', text: 'Alpha  beta \udc00 gamma delta epsilon zeta eta' }, // the same UTF-8 once normalized
      { id: 'c', text: 'alpha beta \ufffd gamma delta epsilon zeta eta' },
      { id: 'd', text: 'an unrelated document about something else entirely, long enough' },
      { id: 'e', text: '  ' },
    ];
    const { cli, memory } = await both(documents, [], 'estimate');
    expect(cli.assignment.counts.exactDuplicates).toBe(2);
    expectSameResults(cli, memory);
  });

  it.each(['estimate', 'exact', 'hybrid'] as const)(
    'agrees on the sample corpus with a reference set (--verify %s)',
    async (verify) => {
      const lines = gunzipSync(readFileSync('data/sample.jsonl.gz')).toString('utf8').trim().split('\n');
      const documents = lines.slice(0, 160).map((line) => JSON.parse(line) as InMemoryDocument);
      const against = documents.slice(100, 120).map((d, i) => ({ id: `ref-${i}`, text: `${d.text} (reference copy)` }));
      const { cli, memory } = await both(documents, against, verify);
      expect(cli.contamination!.removedGroups).toBeGreaterThan(0);
      expect(cli.assignment.counts.nearDuplicateClusters).toBeGreaterThan(0);
      expectSameResults(cli, memory);
    },
  );
});

describe("dedupDocumentStream (the tab's streaming path)", () => {
  async function* stream(
    documents: readonly InMemoryDocument[],
    reads: { count: number },
  ): AsyncGenerator<InMemoryDocument> {
    reads.count++;
    for (const doc of documents) {
      await Promise.resolve(); // a real reader yields between chunks
      yield doc;
    }
  }

  it.each(['estimate', 'exact'] as const)(
    "gives dedupDocuments' result from async iterables, read once, exact sets kept from the first pass (--verify %s)",
    async (verify) => {
      const lines = gunzipSync(readFileSync('data/sample.jsonl.gz')).toString('utf8').trim().split('\n');
      const documents = lines.slice(0, 160).map((line) => JSON.parse(line) as InMemoryDocument);
      const against = documents.slice(100, 120).map((d, i) => ({ id: `ref-${i}`, text: `${d.text} (reference copy)` }));
      const lsh = optimalParams(0.8, params.k, DEDUP_WEIGHTS);
      const backend = new CpuSigner(hashFamilyOf(params));
      const shingle = shingleOptionsOf(params);
      const settings = {
        threshold: 0.8,
        verify,
        clusterCheck: 'representative',
        keep: { kind: 'longest' },
        lsh,
        backend,
        shingle,
        slotBits: params.slotBits,
      } as const;
      try {
        const memory = await dedupDocuments(documents, { ...settings, against });
        const reads = { count: 0 };
        const progress: string[] = [];
        const streamed = await dedupDocumentStream(stream(documents, reads), {
          ...settings,
          against: stream(against, { count: 0 }),
          onProgress: (stage, done, total) => progress.push(`${stage} ${done}/${total}`),
        });
        expect(streamed.assignment).toEqual(memory.assignment);
        expect(streamed.verified).toEqual(memory.verified);
        expect(streamed.contamination?.match).toEqual(memory.contamination?.match);
        expect(reads.count).toBe(1);
        expect(progress).toContain(`banding ${lsh.bands}/${lsh.bands}`);
      } finally {
        backend.destroy();
      }
    },
  );
});

describe('dedupDocuments with stage workers (the tab passes its own)', () => {
  it.each(['estimate', 'exact', 'hybrid'] as const)(
    'bands on them, and with shared memory decides pairs there too: the same result as on one thread (--verify %s)',
    async (verify) => {
      const lines = gunzipSync(readFileSync('data/sample.jsonl.gz')).toString('utf8').trim().split('\n');
      const documents = lines.slice(0, 160).map((line) => JSON.parse(line) as InMemoryDocument);
      const against = documents.slice(100, 120).map((d, i) => ({ id: `ref-${i}`, text: `${d.text} (reference copy)` }));
      const backend = new CpuSigner(hashFamilyOf(params));
      const workers = nodeStageWorkers(2);
      const asked = new Map<string, number>();
      const pool = workers.banding as unknown as StageWorkerPool;
      const stageWorkers: StageWorkerPool = {
        size: pool.size,
        request: (worker, request, transfer) => {
          asked.set(request.type, (asked.get(request.type) ?? 0) + 1);
          return pool.request(worker, request, transfer);
        },
      };
      try {
        const options = {
          threshold: 0.8,
          verify,
          clusterCheck: 'representative',
          keep: { kind: 'longest' },
          lsh: optimalParams(0.8, params.k, DEDUP_WEIGHTS),
          backend,
          shingle: shingleOptionsOf(params),
          slotBits: params.slotBits,
          against,
        } as const;
        const alone = await dedupDocuments(documents, options);
        const pooled = await dedupDocuments(documents, { ...options, stageWorkers });
        expect(alone.assignment.counts.nearDuplicateClusters).toBeGreaterThan(0);
        expectSameResults(alone as never, pooled as never);
        expect([...pooled.verified.estimate]).toEqual([...alone.verified.estimate]);
        expect(pooled.verified.decided).toEqual(alone.verified.decided);
        expect(pooled.clustering.checkDecided).toEqual(alone.clustering.checkDecided);
        expect(asked.get('band')).toBeGreaterThan(0);
        // Node has shared memory: the sets lie in shared chunks, and the pairs are decided on the workers.
        if (verify !== 'estimate') expect(asked.get('decide')).toBeGreaterThan(0);
      } finally {
        workers.destroy();
        backend.destroy();
      }
    },
  );
});
