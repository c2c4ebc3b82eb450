/** The bundled sample corpus, loaded once for benchmarks. */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

export interface BenchDocument {
  readonly id: string;
  readonly text: string;
}

export function loadSampleCorpus(path = 'data/sample.jsonl.gz'): BenchDocument[] {
  return gunzipSync(readFileSync(path))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as BenchDocument);
}

export function utf8Bytes(documents: readonly BenchDocument[]): number {
  return documents.reduce((sum, d) => sum + Buffer.byteLength(d.text), 0);
}
