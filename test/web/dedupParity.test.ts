/**
 * web/dedup.ts (the browser app's pipeline) run in Node on the CPU backend
 * against runDedup on the same documents: the exact pre-pass must group the
 * same documents (the CLI hashes the UTF-8 of the normalized text, in which
 * every lone surrogate becomes U+FFFD), so counts, clusters and kept flags agree.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEDUP_WEIGHTS, optimalParams } from '../../src/bands/lshParams.js';
import { runDedup } from '../../src/pipeline/dedup.js';
import { DEFAULT_READ } from '../../src/io/documents.js';
import { CpuSigner } from '../../src/signatures/cpuSigner.js';
import { hashFamilyOf, makeParams, shingleOptionsOf } from '../../src/signatures/params.js';
import { dedupDocuments, type WebDocument } from '../../web/dedup.js';
import { tempDir } from '../support/cli.js';

describe('web/dedup.ts against runDedup', () => {
  it('groups exact duplicates as the CLI does, lone surrogates included', async () => {
    const documents: WebDocument[] = [
      { id: 'a', text: 'alpha beta \ud800 gamma delta epsilon zeta eta' },
      { id: 'b', text: 'Alpha  beta \udc00 gamma delta epsilon zeta eta' }, // the same UTF-8 once normalized
      { id: 'c', text: 'alpha beta \ufffd gamma delta epsilon zeta eta' },
      { id: 'd', text: 'an unrelated document about something else entirely, long enough' },
      { id: 'e', text: '  ' },
    ];
    const dir = tempDir();
    const input = join(dir, 'corpus.jsonl');
    writeFileSync(input, documents.map((d) => JSON.stringify({ id: d.id, text: d.text })).join('\n') + '\n');
    const params = makeParams({ k: 64 });
    const lsh = optimalParams(0.8, params.k, DEDUP_WEIGHTS);
    const settings = { threshold: 0.8, verify: 'estimate', clusterCheck: 'none', keep: { kind: 'first' } } as const;
    const cli = await runDedup({ inputs: [input], read: DEFAULT_READ, params, backend: 'cpu', lsh, against: [], ...settings });
    const backend = new CpuSigner(hashFamilyOf(params));
    const web = await dedupDocuments(documents, { ...settings, shingle: shingleOptionsOf(params), slotBits: params.slotBits }, backend);
    backend.destroy();
    expect(cli.assignment.counts.exactDuplicates).toBe(2);
    expect(web.counts).toEqual(cli.assignment.counts);
    expect([...web.cluster]).toEqual([...cli.assignment.cluster]);
    expect([...web.kept]).toEqual([...cli.assignment.kept]);
  });
});
