/** `dedup({ audit })` of the library (src/api.ts): the audit of a run over documents held in memory. */
import { auditDedup, type AuditResult } from '../audit/audit.js';
import { DEFAULT_CHAIN_DELTA } from '../clusters/nearDuplicates.js';
import { shingleDocument } from '../shingles/shingles.js';
import { shingleOptionsOf, type SignatureParams } from '../signatures/params.js';
import type { DedupDocumentsResult, InMemoryDocument } from './dedupDocuments.js';

/**
 * The audit of an in-memory run: the sample's shingle sets from the documents' texts (any member of a group has its
 * text).
 */
export function auditInMemory(
  result: DedupDocumentsResult,
  corpus: readonly InMemoryDocument[],
  params: SignatureParams,
  options: { audit: number; auditSeed?: string | number; threshold: number; chainDelta?: number },
): Promise<AuditResult> {
  const shingle = shingleOptionsOf(params);
  const settings = {
    perBin: options.audit,
    seed: options.auditSeed ?? params.seed,
    threshold: options.threshold,
    chainDelta: options.chainDelta ?? DEFAULT_CHAIN_DELTA,
  };
  const input = {
    verified: result.verified,
    assignment: result.assignment,
    table: result.table,
    contaminated: result.contamination?.flags,
  };
  return auditDedup(input, settings, async (needed) => {
    const sets: (Uint32Array | undefined)[] = new Array(needed.length);
    for (let d = 0; d < corpus.length; d++) {
      const g = result.table.group(d);
      if (g >= 0 && needed[g] === 1 && sets[g] === undefined) sets[g] = shingleDocument(corpus[d].text, shingle);
    }
    return sets;
  });
}
