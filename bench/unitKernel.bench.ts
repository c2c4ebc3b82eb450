/**
 * The first pass's document kernel alone, on one thread: a JSON Lines corpus
 * cut into units as lineUnits cuts it (512 KiB at line ends), each walked by
 * the kernel; MB/s of input and ms per MB, with the load average.
 *
 *   node dist/bench/unitKernel.bench.js CORPUS.jsonl [--runs N] [--char] [--hash fnv1a64|sha1-32|sha1-64]
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { UNIT_BYTES } from '../src/firstPass/lineUnits.js';
import { kernelLines, LineStatus, R, type KernelSetup } from '../src/firstPass/wasm/unitKernel.js';
import type { ShingleHash } from '../src/shingles/sha1Shingles.js';

const argv = process.argv.slice(2);
const bytes = readFileSync(argv[0]);
const runs = Number(argv[argv.indexOf('--runs') + 1] || 5);
const hash = (argv.includes('--hash') ? argv[argv.indexOf('--hash') + 1] : 'fnv1a64') as ShingleHash;
const setup: KernelSetup = {
  textField: 'text',
  idField: 'id',
  idRequired: false,
  char: argv.includes('--char'),
  n: argv.includes('--char') ? 5 : 5,
  hash,
};
const units: Uint8Array[] = [];
for (let at = 0; at < bytes.length; ) {
  let end = Math.min(bytes.length, at + UNIT_BYTES);
  if (end < bytes.length) end = bytes.lastIndexOf(0x0a, end - 1) + 1 || bytes.length;
  units.push(new Uint8Array(bytes.subarray(at, end)));
  at = end;
}
console.log(
  `${argv[0]}: ${(bytes.length / 1e6).toFixed(1)} MB in ${units.length} units, ${setup.char ? 'char' : 'word'} ${setup.n}-grams, ${hash}; load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
for (let run = 0; run < runs; run++) {
  let documents = 0;
  let forJs = 0;
  let shingles = 0;
  const started = performance.now();
  for (const unit of units) {
    kernelLines(unit, 1, false, setup, '', (records, width) => {
      for (let r = 0; r < records.count; r++) {
        const status = records.words[r * width + R.STATUS];
        if (status === LineStatus.Document) documents++;
        else if (status === LineStatus.ForJs) forJs++;
        shingles += records.words[r * width + R.SH_COUNT];
      }
    });
  }
  const ms = performance.now() - started;
  console.log(
    `run ${run + 1}: ${ms.toFixed(0)} ms, ${(bytes.length / 1e6 / (ms / 1000)).toFixed(1)} MB/s, ${(ms / (bytes.length / 1e6)).toFixed(2)} ms/MB; ${documents} documents, ${forJs} for JavaScript, ${shingles} shingles`,
  );
}
console.log(
  `load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
