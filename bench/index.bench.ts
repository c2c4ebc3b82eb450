/**
 * The persistent index (src/lshIndex) as a library: build an index of N
 * generated documents (bench/scaleCorpus.ts's base texts: 150–450 words of
 * licence text, all distinct), then measure open time, size on disk per
 * document, query latency of one ~3 KB document (p50/p99), and memory.
 *
 *   node dist/bench/index.bench.js DOCUMENTS [--dir DIR] [--batch 50000] [--queries 1000] [--keep]
 *   node dist/bench/index.bench.js --serve DIR DOCUMENTS [--queries 1000]   (the measuring half alone)
 *   … --synthetic TOTAL   then fills the index up to TOTAL documents with a segment of random signatures
 *                         (no candidates; empty shingle sets), for open time, memory and lookups at a scale
 *                         this machine cannot sign in the time (the DOCUMENTS real ones stay the queries' matches)
 *
 * The open/query/memory half runs in a fresh process (as `gpudedup serve`
 * would), so that building does not count in its memory.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync, statSync, readdirSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { createIndex, openIndex } from '../src/lshIndex/diskIndex.js';
import { acquireLock } from '../src/lshIndex/lock.js';
import { readManifest, segmentName, writeManifest } from '../src/lshIndex/manifest.js';
import { SegmentWriter } from '../src/lshIndex/segmentFiles.js';
import { parametersFromRecord, signatureParamsOf } from '../src/lshIndex/options.js';
import { inlineIndexSigner, signTexts } from '../src/lshIndex/signing.js';
import { hashFamilyOf } from '../src/signatures/params.js';
import { openSigner } from '../src/firstPass/node/resolveBackend.js';
import { Generator, licenceWords } from './scaleCorpus.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : fallback;
};
const serving = argv[0] === '--serve';
const documents = Number(serving ? argv[2] : (argv[0] ?? 100_000));
const batch = Number(option('--batch', '50000'));
const queries = Number(option('--queries', '1000'));
const dir = serving ? argv[1] : option('--dir', join(mkdtempSync(join(tmpdir(), 'index-bench-')), 'index'));
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

const generator = new Generator(licenceWords(), 1);
const text = (i: number): string => generator.baseWords(i).join(' ');

async function build(): Promise<void> {
  console.log(`index bench: ${documents} documents into ${dir}; load average before: ${load()}`);
  let started = performance.now();
  const writer = await createIndex(dir, { threads: 2 });
  for (let from = 0; from < documents; from += batch) {
    const docs = Array.from({ length: Math.min(batch, documents - from) }, (_, j) => ({
      id: `doc-${from + j}`,
      text: text(from + j),
    }));
    const result = await writer.add(docs);
    process.stdout.write(
      `  added ${from + docs.length} (${result.matched} matched) ${((performance.now() - started) / 1000).toFixed(1)} s\r`,
    );
  }
  const buildSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  await writer.compact();
  const compactSeconds = (performance.now() - started) / 1000;
  const stats = await writer.stats();
  await writer.close();
  console.log(
    `\nbuilt in ${buildSeconds.toFixed(1)} s (${(documents / buildSeconds).toFixed(0)} docs/s, batches of ${batch}), compacted in ${compactSeconds.toFixed(1)} s; ${stats.documents} documents, parameters ${JSON.stringify(stats.parameters)}`,
  );

  // Size on disk, per kind of file.
  const sizes = new Map<string, number>();
  for (const name of readdirSync(dir)) {
    const kind = name.replace(/^seg-\d+\./, '');
    sizes.set(kind, (sizes.get(kind) ?? 0) + statSync(join(dir, name)).size);
  }
  const perDoc = (bytes: number): string => (bytes / stats.documents).toFixed(1);
  console.log('| file | bytes | bytes per document |\n| --- | --: | --: |');
  let total = 0;
  for (const [kind, bytes] of [...sizes].sort()) {
    total += bytes;
    console.log(`| ${kind} | ${bytes} | ${perDoc(bytes)} |`);
  }
  const { k, slotBits, bands } = stats.parameters as { k: number; slotBits: number; bands: number };
  const engine = (sizes.get('sig') ?? 0) + (sizes.get('bands') ?? 0) + (sizes.get('ids') ?? 0);
  console.log(`| total | ${total} | ${perDoc(total)} |`);
  console.log(
    `target per document: k × slot bytes + 12 × bands + id = ${k} × ${slotBits / 8} + 12 × ${bands} + id ≈ ${k * (slotBits / 8) + 12 * bands} + ~11; engine files (sig + bands + ids): ${perDoc(engine)}`,
  );
}

async function serve(): Promise<void> {
  // Open (a reader, as serve opens), both checksum modes; the second after the first warmed the page cache.
  for (const checksums of ['lazy', 'auto', 'open', 'lazy'] as const) {
    const t = performance.now();
    const reader = await openIndex(dir, { readOnly: true, checksums });
    const ms = performance.now() - t;
    console.log(`open (checksums ${checksums}): ${ms.toFixed(0)} ms, rss ${mib(process.memoryUsage().rss)}`);
    await reader.close();
  }

  console.log(`serving process: rss ${mib(process.memoryUsage().rss)} before opening`);
  const reader = await openIndex(dir, { readOnly: true });
  await reader.query([text(0)]); // the lazy checksum of the segment, the kernel's first load
  // Queries of ~3 KB (420–450 words): half near copies of the longest indexed documents (one word in 80 changed,
  // J ≈ 0.9), half new documents (no match).
  const long = (i: number): string => {
    const words: string[] = [];
    for (let j = 0; words.length < 450; j++) words.push(...generator.baseWords(i + j * 7_919));
    return words.slice(0, 450).join(' ');
  };
  const longest: number[] = [];
  for (let i = 0; i < documents && longest.length < queries; i++) if (text(i).split(' ').length >= 420) longest.push(i);
  const probes = Array.from({ length: queries }, (_, q) => {
    if (q % 2 === 1 || longest.length === 0) return long(documents + 1_000_000 + q);
    const words = text(longest[(q / 2) % longest.length]).split(' ');
    for (let w = 0; w < words.length; w += 80) words[w] = 'changed';
    return words.join(' ');
  });
  console.log(
    `query texts: mean ${(probes.reduce((n, p) => n + Buffer.byteLength(p), 0) / probes.length / 1024).toFixed(1)} KB`,
  );
  for (const mode of [{}, { top: 10 }]) {
    const times: number[] = [];
    let matched = 0;
    for (const probe of probes) {
      const t = performance.now();
      const [result] = await reader.query([probe], mode);
      times.push(performance.now() - t);
      if (result.matches.length > 0) matched++;
    }
    times.sort((a, b) => a - b);
    console.log(
      `query ${JSON.stringify(mode)}: p50 ${percentile(times, 0.5).toFixed(2)} ms, p99 ${percentile(times, 0.99).toFixed(2)} ms, max ${times[times.length - 1].toFixed(2)} ms; ${matched}/${probes.length} with matches`,
    );
  }
  const memory = process.memoryUsage();
  console.log(
    `memory while serving: rss ${mib(memory.rss)}, heap ${mib(memory.heapUsed)}, array buffers ${mib(memory.arrayBuffers)}`,
  );
  // Signing one query text: on this thread (what query does) against a round trip to the worker pool.
  const parameters = parametersFromRecord(reader.parameters as Record<string, unknown>);
  const inline = inlineIndexSigner(parameters);
  const pool = await openSigner('cpu', hashFamilyOf(signatureParamsOf(parameters)), { cpuThreads: 2 });
  for (const [name, signer] of [
    ['this thread (wasm)', inline],
    ['worker pool', pool.firstPass],
  ] as const) {
    const times: number[] = [];
    for (const probe of probes.slice(0, 300)) {
      const t = performance.now();
      await signTexts([probe], signer, parameters, parameters.storeSets);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    console.log(
      `signing one query text on ${name} (${signer.backend.description}): p50 ${percentile(times, 0.5).toFixed(2)} ms, p99 ${percentile(times, 0.99).toFixed(2)} ms`,
    );
  }
  pool.signer.destroy();
  pool.firstPass.workers.destroy();
  await reader.close();
  console.log(`load average after: ${load()}`);
}

/** A segment of `count` random signatures (ids syn-N), committed as the index's next generation. */
function synthetic(count: number): void {
  const started = performance.now();
  const lock = acquireLock(dir);
  try {
    const manifest = readManifest(dir);
    const p = manifest.parameters;
    const writer = new SegmentWriter(dir, segmentName(manifest.generation + 1), p, p.storeSets);
    const row = new Uint32Array(p.slotBits === 64 ? 2 * p.k : p.k);
    const key = new Uint32Array(4);
    let x = 0x9e3779b9;
    const next = (): number => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return x >>> 0;
    };
    for (let i = 0; i < count; i++) {
      for (let w = 0; w < row.length; w++) row[w] = next();
      for (let w = 0; w < 4; w++) key[w] = next();
      writer.add(`syn-${i}`, 2000, row, 0, key, false, new Uint32Array(0));
    }
    const record = writer.finish();
    writeManifest(dir, {
      ...manifest,
      generation: manifest.generation + 1,
      segments: [...manifest.segments, record],
      documents: manifest.documents + count,
    });
  } finally {
    lock.release();
  }
  console.log(`synthetic: ${count} random signatures added in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

if (serving) await serve();
else {
  if (argv.includes('--reuse') && existsSync(join(dir, 'manifest.json'))) console.log(`reusing the index in ${dir}`);
  else await build();
  const total = Number(option('--synthetic', '0'));
  if (total > documents) synthetic(total - documents);
  // The measuring half in a fresh process: its memory is the serving index's alone.
  execFileSync(
    process.execPath,
    [fileURLToPath(import.meta.url), '--serve', dir, String(documents), '--queries', String(queries)],
    { stdio: 'inherit' },
  );
  if (!argv.includes('--keep') && !argv.includes('--dir')) rmSync(join(dir, '..'), { recursive: true, force: true });
}
