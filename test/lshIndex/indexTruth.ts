/**
 * Brute-force answers on the index's own shingle sets (the project's
 * shingling and exact Jaccard, not the forests): every indexed document's
 * exact Jaccard with each query. And the bundled corpus, as documents.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { resolveParameters } from '../../src/lshIndex/options.js';
import { inlineIndexSigner, signTexts } from '../../src/lshIndex/signing.js';
import { exactJaccard } from '../../src/verify/verification.js';

import type { Doc } from './queryCorpus.js';

/** The README's query: a sentence held whole by dozens of the bundled licences. */
export const MIT_SENTENCE = 'Permission is hereby granted, free of charge, to any person obtaining a copy';

/** data/sample.jsonl.gz: 727 licences, some in families of dozens (MIT, BSD). */
export const sampleDocuments = (): Doc[] =>
  gunzipSync(readFileSync('data/sample.jsonl.gz'))
    .toString()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Doc)
    .map(({ id, text }) => ({ id, text }));

/** Each query's exact Jaccard with every document, by id, on the default index's shingle sets. */
export async function exactTruth(docs: readonly Doc[], queries: readonly string[]): Promise<Map<string, number>[]> {
  const parameters = resolveParameters({});
  const signed = await signTexts(
    [...docs.map((d) => d.text), ...queries],
    inlineIndexSigner(parameters),
    parameters,
    true,
  );
  const sets = signed.sets!;
  return queries.map((_, q) => new Map(docs.map((d, i) => [d.id, exactJaccard(sets[docs.length + q], sets[i])])));
}

/** The `k` best values of a query's truth, best first. */
export const bestValues = (truth: ReadonlyMap<string, number>, k: number): number[] =>
  [...truth.values()].sort((a, b) => b - a).slice(0, k);
