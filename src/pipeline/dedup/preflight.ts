/**
 * `gpudedup dedup`'s checks before any work (reading, signing), for problems
 * that would otherwise surface only at the end of the run or destroy an
 * input: every output against every file the run reads (outputChecks.ts),
 * a corpus file given as its own reference, a `--temp-directory` that is not
 * there, and a `--keep field:NAME` that no document has.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { keepScore } from '../../text/keepPolicy.js';
import { isParquetOutput } from '../../formats/parquet/parquetFile.js';
import { sidecarPath } from '../../formats/shards/signatureSidecar.js';
import { listInputFiles, readDocuments, type InputFile } from '../../io/readDocuments.js';
import type { DedupConfig } from '../shared/config.js';
import {
  cannotCreateFilesIn,
  checkOutputs,
  OutputPathError,
  refuseSelfReference,
  type NamedOutput,
  type ReadFile,
} from '../shared/outputChecks.js';

/** The names of the plots `--plots DIR` writes. */
export const PLOT_FILES = ['s-curve.svg', 'similarity-histogram.svg'] as const;

/** Every file the run reads: the corpus, the references, a signature file and its sidecar. */
export async function dedupReads(
  config: Pick<DedupConfig, 'inputs' | 'against' | 'signatures'>,
): Promise<{ corpus: InputFile[]; reference: InputFile[]; reads: ReadFile[] }> {
  const corpus = await listInputFiles(config.inputs);
  const reference = await listInputFiles(config.against);
  const reads: ReadFile[] = [...corpus, ...reference.map((f) => ({ path: f.path, role: '--against' }))];
  if (config.signatures !== undefined) reads.push(...signatureReads(config.signatures));
  return { corpus, reference, reads };
}

/** A signature file as an input: the .npy and its sidecar, or the Parquet file. */
export function signatureReads(path: string): ReadFile[] {
  const file = { path, role: '--signatures' };
  return isParquetOutput(path) ? [file] : [file, { path: sidecarPath(path), role: '--signatures sidecar' }];
}

export async function dedupPreflight(
  config: DedupConfig,
  outputs: readonly NamedOutput[],
  plots: string | undefined,
): Promise<void> {
  const { corpus, reference, reads } = await dedupReads(config);
  const plotOutputs =
    plots === undefined ? [] : PLOT_FILES.map((name) => ({ flag: '--plots', path: join(plots, name) }));
  await checkOutputs([...outputs, ...plotOutputs], reads);
  await refuseSelfReference(corpus, reference);
  if (config.tempDirectory !== undefined) await checkTempDirectory(config.tempDirectory);
  await checkKeepField(config, corpus);
}

async function checkTempDirectory(dir: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (info === undefined)
    throw new OutputPathError(`--temp-directory ${dir}: no such directory (create it, or choose another)`);
  if (!info.isDirectory()) throw new OutputPathError(`--temp-directory ${dir}: not a directory`);
  const refused = await cannotCreateFilesIn(dir);
  if (refused !== undefined)
    throw new OutputPathError(`--temp-directory ${dir}: cannot create files there: ${refused}`);
}

/**
 * `--keep field:NAME` that no document has is a mistyped name: refused before
 * signing. The corpus is read up to the first document that has the field
 * (at once, when the name is right); standard input, read once, is checked
 * after the signing pass instead (dedup.ts).
 */
async function checkKeepField(config: DedupConfig, corpus: readonly InputFile[]): Promise<void> {
  const { keep } = config;
  if (keep.kind !== 'field' || corpus.length === 0 || corpus.some((f) => f.path === '-')) return;
  let documents = 0;
  const read = { ...config.read, onInvalid: () => undefined, onBinary: () => undefined };
  for await (const doc of readDocuments(corpus, read)) {
    if (!keepScore(keep, doc.text, doc.record).missing) return;
    documents++;
  }
  if (documents > 0)
    throw new RangeError(
      `--keep field:${keep.field}: no document has a numeric "${keep.field}" field (numbers or numeric strings)`,
    );
}
