/**
 * n-gram decontamination's speed (issue 32, item 4), stage by stage, with baselines measured in the same run:
 * reading the JSONL alone, and tokenize() (the word shingles' tokenization) on the same texts. The corpus is
 * bench/plantedItems.ts's (SPDX licences, every third document holding a benchmark item: whole, paraphrased or
 * line-wrapped); the references are ITEMS items of 25–64 of the licences' words, so nearly every corpus window is
 * made of reference words and is looked up (the costly case).
 *
 *   node dist/bench/ngrams.bench.js [MB=100] [ITEMS=5000]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_READ } from '../src/io/documents.js';
import { readDocuments, listInputFiles } from '../src/io/readDocuments.js';
import { decontaminate, decontaminatePreflight } from '../src/pipeline/substrings/decontaminate.js';
import { NgramDecontaminator, type ContaminatedSpan } from '../src/substrings/ngramDecontamination.js';
import { tokenize } from '../src/text/normalize.js';
import { tokenOffsets } from '../src/text/tokenOffsets.js';
import { plantedCorpus, plantedOverlaps, sampleTexts } from './plantedItems.js';

const megabytes = Number(process.argv[2] ?? 100);
const items = Number(process.argv[3] ?? 5000);
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const averageBytes = sampleTexts().reduce((sum, t) => sum + Buffer.byteLength(t), 0) / sampleTexts().length;
const planted = plantedCorpus(32, Math.ceil((megabytes * 1e6) / averageBytes), items);
const corpusBytes = planted.corpus.reduce((sum, t) => sum + Buffer.byteLength(t), 0);
const mb = corpusBytes / 1e6;
console.log(
  `corpus: ${planted.corpus.length} documents, ${mb.toFixed(1)} MB of text; ${items} reference items; load ${load()}`,
);

async function stage<T>(label: string, work: () => T | Promise<T>, bytes = corpusBytes): Promise<T> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const cpuPerMb = (used.user + used.system) / 1e6 / (bytes / 1e6);
  console.log(
    `| ${label} | ${seconds.toFixed(2)} s | ${(bytes / 1e6 / seconds).toFixed(1)} MB/s | ` +
      `${cpuPerMb.toFixed(3)} CPU-s/MB | ${load()} |`,
  );
  return result;
}

/** Recall of the planted overlaps (each found against its item), and false reports (spans differing in tokens). */
function checkSpans(spans: readonly ContaminatedSpan[][]): void {
  let recalled = 0;
  let overlaps = 0;
  for (const plant of planted.plants) {
    if (plantedOverlaps(plant, 13).length === 0) continue;
    overlaps++;
    if (spans[plant.document].some((s) => s.reference === plant.reference)) recalled++;
  }
  let wrong = 0;
  let count = 0;
  spans.forEach((list, d) => {
    const bytes = Buffer.from(planted.corpus[d]);
    for (const s of list) {
      count++;
      const ours = tokenize(bytes.subarray(s.start, s.end).toString());
      const theirs = tokenize(
        Buffer.from(planted.references[s.reference]).subarray(s.referenceStart, s.referenceEnd).toString(),
      );
      if (ours.length < 13 || ours.join(' ') !== theirs.join(' ')) wrong++;
    }
  });
  console.log(
    `recall: ${recalled} of ${overlaps} planted items with a 13-token overlap; ${count} spans reported, ${wrong} false`,
  );
}

console.log('| stage | wall | rate | CPU per MB | load |\n|---|---|---|---|---|');
const dir = mkdtempSync(join(tmpdir(), 'ngrams-bench-'));
try {
  const corpus = join(dir, 'corpus.jsonl');
  const references = join(dir, 'bench.jsonl');
  writeFileSync(corpus, planted.corpus.map((text, i) => `${JSON.stringify({ id: `d${i}`, text })}\n`).join(''));
  writeFileSync(references, planted.references.map((text, i) => `${JSON.stringify({ id: `q${i}`, text })}\n`).join(''));
  await stage('baseline: read the JSONL', async () => {
    for await (const doc of readDocuments(await listInputFiles([corpus]), DEFAULT_READ)) void doc;
  });
  await stage("baseline: tokenize() (word shingles' tokens)", () => {
    for (const t of planted.corpus) tokenize(t);
  });
  await stage('tokenOffsets (tokens and their byte offsets)', () => {
    for (const t of planted.corpus) tokenOffsets(t);
  });
  const decontaminator = new NgramDecontaminator(13);
  const referenceBytes = planted.references.reduce((sum, t) => sum + Buffer.byteLength(t), 0);
  await stage(
    'references: tokens and 13-gram table',
    () => {
      for (const t of planted.references) decontaminator.addReference(t);
      decontaminator.spansOf(''); // builds the table
    },
    referenceBytes,
  );
  const spans = await stage('scan: spansOf every document', () => planted.corpus.map((t) => decontaminator.spansOf(t)));
  const found = spans.filter((s) => s.length > 0).length;
  const expected = planted.plants.filter((p) => plantedOverlaps(p, 13).length > 0).length;
  console.log(
    `contaminated documents: ${found}; planted items: ${planted.plants.length}, ` +
      `${expected} of them with a run of 13 tokens left`,
  );
  checkSpans(spans);
  const config = {
    inputs: [corpus],
    against: [references],
    minTokens: 13,
    action: 'cut' as const,
    minRemaining: 1,
    read: DEFAULT_READ,
    normalize: { nfkc: false, stripPunctuation: false },
    out: join(dir, 'cut.jsonl'),
    contamination: join(dir, 'spans.csv'),
  };
  await stage('whole pass: substrings --against --action cut -o --contamination', async () =>
    decontaminate(config, await decontaminatePreflight(config)),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
