/**
 * `gpudedup substrings` against deduplicate-text-datasets (Lee et al. 2021,
 * google-research; its public source built with cargo outside this repository):
 * the same corpus, its suffix array (make_suffix_array.py), `self-similar
 * --length-threshold L` and `collect`, beside ours, timed with GNU time
 * (wall, user + sys, peak RSS), with the load average.
 *
 *   node dist/bench/substrings.bench.js --reference DIR [--documents 50000] [--length 100] [--dir WORK] [--corpus X.jsonl]
 *
 * DIR holds the reference's checkout with `cargo build --release` done. Two comparisons:
 *  1. the same bytes: the reference's data file (each document preceded by its
 *     separator, \xff\xff and its number, as its load_dataset.py writes them)
 *     searched by our engine as one string: the byte ranges must be equal, all of them;
 *  2. the documents: `gpudedup substrings --cut all --spans` on the JSONL, against
 *     the reference's ranges clipped to each document's text. They differ only
 *     where the reference's windows take in separator bytes (a document whose
 *     first or last L − 1 to L − 5 bytes repeat): counted and checked to touch a document's edge.
 */
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { searchRepeatsInWorkers } from '../src/substrings/repeatWorkers.js';
import { load, timed, type Timed } from './gnuTime.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const CLI = resolve(here, '../src/cli/main.js');
const GENERATOR = resolve(here, 'scaleCorpus.js');
/** The reference's data file: per document \xff\xff + its number (u32 LE), then the text's UTF-8; and where each text starts. */
async function writeDataFile(
  corpus: string,
  path: string,
): Promise<{ starts: number[]; ends: number[]; ids: string[] }> {
  const out = createWriteStream(path);
  const starts: number[] = [];
  const ends: number[] = [];
  const ids: string[] = [];
  let at = 0;
  for (const line of readFileSync(corpus, 'utf8').split('\n')) {
    if (line === '') continue;
    const { id, text } = JSON.parse(line) as { id: unknown; text: string };
    const head = Buffer.alloc(6);
    head[0] = head[1] = 0xff;
    head.writeUInt32LE(ids.length, 2);
    const body = Buffer.from(text, 'utf8');
    if (!out.write(Buffer.concat([head, body]))) await once(out, 'drain');
    starts.push(at + 6);
    at += 6 + body.length;
    ends.push(at);
    ids.push(String(id));
  }
  out.end();
  await once(out, 'finish');
  return { starts, ends, ids };
}

function runReference(
  dir: string,
  data: string,
  length: number,
  work: string,
): { ranges: Array<[number, number]>; times: Record<string, Timed> } {
  const debug = join(dir, 'target/debug');
  if (!existsSync(debug)) symlinkSync(join(dir, 'target/release'), debug); // its scripts call ./target/debug
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  const cache = join(work, 'ref-cache');
  rmSync(cache, { recursive: true, force: true });
  const exe = join(dir, 'target/release/dedup_dataset');
  const times = {
    suffixArray: timed('python3', ['scripts/make_suffix_array.py', data], dir),
    selfSimilar: timed(
      exe,
      [
        'self-similar',
        '--data-file',
        data,
        '--length-threshold',
        String(length),
        '--cache-dir',
        cache,
        '--num-threads',
        String(cpus().length),
      ],
      dir,
    ),
    collect: timed(
      exe,
      ['collect', '--data-file', data, '--cache-dir', cache, '--length-threshold', String(length)],
      dir,
      join(work, 'ref-ranges.txt'),
    ),
  };
  const text = readFileSync(join(work, 'ref-ranges.txt'), 'utf8');
  const lines = text
    .slice(text.indexOf('out\n') + 4)
    .split('\n')
    .filter((l) => l.trim() !== '');
  return { ranges: lines.map((l) => l.split(' ').map(Number) as [number, number]), times };
}

/** Our engine on the data file's bytes as one string (the child process of comparison 1). */
async function engineOnBytes(data: string, length: number, out: string): Promise<void> {
  const raw = readFileSync(data);
  const bytes = new Uint8Array(new SharedArrayBuffer(raw.length));
  bytes.set(raw);
  const starts = new Float64Array(new SharedArrayBuffer(16));
  starts[1] = raw.length;
  const { spans } = await searchRepeatsInWorkers(
    { bytes, starts },
    { minLength: length, cut: 'all', memoryLimitBytes: 4 * 2 ** 30 },
  );
  writeFileSync(
    out,
    Array.from({ length: spans.count }, (_, s) => `${spans.starts[s]} ${spans.ends[s]}`).join('\n') + '\n',
  );
}

/** The reference's ranges cut to each document's text, as `id start end` in the text's own offsets. */
function clipToTexts(
  ranges: ReadonlyArray<[number, number]>,
  layout: { starts: number[]; ends: number[]; ids: string[] },
): string[] {
  const rows: string[] = [];
  let d = 0;
  for (const [a, b] of ranges) {
    while (d < layout.ends.length && layout.ends[d] <= a) d++;
    for (let e = d; e < layout.starts.length && layout.starts[e] < b; e++) {
      const s = Math.max(a, layout.starts[e]);
      const t = Math.min(b, layout.ends[e]);
      if (s < t) rows.push(`${layout.ids[e]} ${s - layout.starts[e]} ${t - layout.starts[e]}`);
    }
  }
  return rows;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const flag = (name: string, fallback?: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : fallback;
  };
  if (args[0] === '--engine-on') return engineOnBytes(args[1], Number(args[2]), args[3]);
  const reference = flag('--reference');
  if (reference === undefined)
    throw new Error(
      'usage: node dist/bench/substrings.bench.js --reference DIR [--documents N] [--length L] [--dir WORK] [--corpus X.jsonl]',
    );
  const documents = Number(flag('--documents', '50000'));
  const length = Number(flag('--length', '100'));
  const work = resolve(flag('--dir', `/tmp/gpudedup-substrings-bench-${documents}`)!);
  mkdirSync(work, { recursive: true });
  const corpus = resolve(flag('--corpus', join(work, `corpus-${documents}.jsonl`))!);
  if (!existsSync(corpus)) execFileSync(process.execPath, [GENERATOR, String(documents), corpus], { stdio: 'inherit' });
  const data = join(work, 'corpus.bin');
  const layout = await writeDataFile(corpus, data);
  const loadBefore = load();
  const ref = runReference(resolve(reference), data, length, work);
  const engine = timed(
    process.execPath,
    [fileURLToPath(import.meta.url), '--engine-on', data, String(length), join(work, 'ours-bytes.txt')],
    work,
  );
  const ours = timed(
    process.execPath,
    [
      CLI,
      'substrings',
      corpus,
      '--cut',
      'all',
      '--min-length',
      String(length),
      '--spans',
      join(work, 'ours.csv'),
      '--report',
      join(work, 'ours.json'),
      '-q',
    ],
    work,
  );
  const loadAfter = load();
  report({
    corpus,
    documents: layout.ids.length,
    data,
    length,
    ref,
    engine,
    ours,
    work,
    layout,
    loadBefore,
    loadAfter,
  });
}

function report(r: {
  corpus: string;
  documents: number;
  data: string;
  length: number;
  ref: ReturnType<typeof runReference>;
  engine: Timed;
  ours: Timed;
  work: string;
  layout: { starts: number[]; ends: number[]; ids: string[] };
  loadBefore: string;
  loadAfter: string;
}): void {
  const refLines = r.ref.ranges.map(([a, b]) => `${a} ${b}`);
  const engineLines = readFileSync(join(r.work, 'ours-bytes.txt'), 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  const sameBytes = refLines.length === engineLines.length && refLines.every((l, i) => l === engineLines[i]);
  const refClipped = new Set(clipToTexts(r.ref.ranges, r.layout));
  const ourRows = readFileSync(join(r.work, 'ours.csv'), 'utf8')
    .split('\n')
    .slice(1)
    .filter((l) => l !== '')
    .map((l) => l.split(',').slice(0, 3).join(' '));
  const ourSet = new Set(ourRows);
  const onlyRef = [...refClipped].filter((x) => !ourSet.has(x));
  const onlyOurs = ourRows.filter((x) => !refClipped.has(x));
  const lengthOf = new Map(r.layout.ids.map((id, d) => [id, r.layout.ends[d] - r.layout.starts[d]]));
  const atEdge = (row: string): boolean => {
    const [id, s, e] = row.split(' ');
    return Number(s) === 0 || Number(e) === lengthOf.get(id);
  };
  // An ours-only span is explained when a reference-only range of its document, at an edge, overlaps it (the same span, widened by separator bytes).
  const overlaps = (a: string, b: string): boolean => {
    const [ia, sa, ea] = a.split(' ');
    const [ib, sb, eb] = b.split(' ');
    return ia === ib && Number(sa) < Number(eb) && Number(sb) < Number(ea);
  };
  const explained = onlyOurs.filter((o) => onlyRef.some((x) => atEdge(x) && overlaps(o, x))).length;
  const mb = statSync(r.corpus).size / 1e6;
  const textMb = r.layout.ends.reduce((sum, e, d) => sum + e - r.layout.starts[d], 0) / 1e6;
  const refTotal = Object.values(r.ref.times).reduce(
    (sum, t) => ({ wall: sum.wall + t.wall, cpu: sum.cpu + t.cpu, peakGiB: Math.max(sum.peakGiB, t.peakGiB) }),
    { wall: 0, cpu: 0, peakGiB: 0 },
  );
  const row = (name: string, t: Timed): string =>
    `| ${name} | ${t.wall.toFixed(1)} s | ${t.cpu.toFixed(1)} s | ${(textMb / t.wall).toFixed(2)} | ${((t.cpu * 1000) / textMb).toFixed(0)} | ${t.peakGiB.toFixed(2)} GiB |`;
  console.log(
    `${r.corpus}: ${r.documents.toLocaleString('en-US')} documents, ${mb.toFixed(1)} MB JSONL, ${textMb.toFixed(1)} MB of text; --length-threshold / --min-length ${r.length}`,
  );
  console.log(
    `${cpus()[0]?.model ?? 'CPU'}, ${cpus().length} cores, Node ${process.version}; load average before ${r.loadBefore}, after ${r.loadAfter}`,
  );
  console.log();
  console.log('| | wall | CPU (user + sys) | MB/s of text | CPU ms per MB | peak RSS |');
  console.log('| --- | --: | --: | --: | --: | --: |');
  for (const [name, t] of Object.entries(r.ref.times)) console.log(row(`deduplicate-text-datasets: ${name}`, t));
  console.log(row('deduplicate-text-datasets: total', refTotal));
  console.log(row('our engine on the same data file (one string)', r.engine));
  console.log(row('gpudedup substrings --cut all --spans (JSONL in, whole process)', r.ours));
  console.log();
  console.log(
    `1. the same bytes: ${refLines.length.toLocaleString('en-US')} reference ranges, ${engineLines.length.toLocaleString('en-US')} ours: ${sameBytes ? 'identical' : 'DIFFERENT'}`,
  );
  console.log(
    `2. per document: ${ourRows.length.toLocaleString('en-US')} spans ours, ${refClipped.size.toLocaleString('en-US')} reference ranges clipped to texts; ` +
      `${(ourRows.length - onlyOurs.length).toLocaleString('en-US')} equal; ${onlyRef.length} only in the reference (${onlyRef.filter(atEdge).length} touching a document's edge), ${onlyOurs.length} only ours (${explained} overlapping a reference-only range at an edge)`,
  );
  if (!sameBytes) process.exitCode = 1;
}

await main();
