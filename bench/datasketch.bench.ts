/**
 * `gpudedup sign --scheme datasketch-affine32` against datasketch 2.0.0's own
 * `MinHash.bulk`, from the same text in the same run (issue 22):
 *
 *   npm run build && node dist/bench/datasketch.bench.js [corpus.jsonl[.gz]] [--threads 2] [--backend cpu] [--repeat N] [--baseline DIR]
 *
 * --repeat runs the contenders N times, interleaved (this build, datasketch, the baseline, …), and reports
 * medians: the machine may be shared. --baseline DIR: another build's checkout (its dist/ built), timed
 * with the same flags in the same rounds, its .npy checked equal to this build's.
 *
 * - gpudedup: the whole process as a user runs it (Node start, reading,
 *   shingling, SHA-1, signing, writing the .npy), wall time;
 * - datasketch: one Python process reading the same file, shingling as a
 *   datasketch user would (lowercase, split on white space, word 5-grams joined
 *   by one space, UTF-8), then `MinHash.bulk(num_perm=128, seed=1, scheme="affine32")`;
 *   its reading + shingling and `bulk` times are reported apart, and the wall
 *   time of the whole process is the comparison;
 * - the rows are compared: equal wherever Python's `str.lower().split()` tokenizes
 *   as gpudedup does (plain text: everywhere).
 * Needs python3 with datasketch 2.0.0 (scripts/install-datasketch.sh).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : fallback;
};
const threads = option('--threads', '2');
const backend = option('--backend', 'cpu');
const repeat = Number(option('--repeat', '1'));
const baseline = ((value) => (value === '' ? undefined : value))(option('--baseline', ''));
const input = args[0] ?? 'data/sample.jsonl.gz';
const K = 128;

const PYTHON = `
import gzip, json, sys, time
t0 = time.perf_counter()
import numpy as np
from datasketch import MinHash
path, npy = sys.argv[1], sys.argv[2]
opener = gzip.open if path.endswith(".gz") else open
with opener(path, "rt", encoding="utf-8") as f:
    texts = [json.loads(line)["text"] for line in f if line.strip()]
def word_shingles(text, n=5):
    tokens = text.lower().split()
    return [" ".join(tokens[i:i + n]).encode("utf-8") for i in range(max(1, len(tokens) - n + 1))] if tokens else []
shingled = [word_shingles(t) for t in texts]
t1 = time.perf_counter()
sketches = MinHash.bulk(shingled, num_perm=${K}, seed=1, scheme="affine32")
t2 = time.perf_counter()
ours = np.load(npy)
equal = sum(bool(np.array_equal(m.hashvalues, row)) for m, row in zip(sketches, ours))
print(json.dumps({"documents": len(texts), "shingles": sum(map(len, shingled)), "shingle_s": t1 - t0, "bulk_s": t2 - t1, "equal_rows": equal}))
`;

const dir = mkdtempSync(join(tmpdir(), 'gpudedup-bench-datasketch-'));
const npy = join(dir, 'sigs.npy');
const TIME = '/usr/bin/time';

/** Runs a command; its wall seconds, CPU seconds (user + system, from /usr/bin/time where there is one) and stdout. */
function timed(command: string, commandArgs: string[]): { wall: number; cpu?: number; stdout: string } {
  const log = join(dir, 'time.log');
  const withTime = existsSync(TIME);
  const started = performance.now();
  const stdout = withTime
    ? execFileSync(TIME, ['-f', '%U %S', '-o', log, command, ...commandArgs], { encoding: 'utf8', maxBuffer: 1 << 28 })
    : execFileSync(command, commandArgs, { encoding: 'utf8', maxBuffer: 1 << 28 });
  const wall = (performance.now() - started) / 1000;
  if (!withTime) return { wall, stdout };
  const [user, system] = readFileSync(log, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
  return { wall, cpu: user + system, stdout };
}

interface Python {
  documents: number;
  shingles: number;
  shingle_s: number;
  bulk_s: number;
  equal_rows: number;
}
interface Run {
  wall: number;
  cpu?: number;
}
const signArgs = (root: string, out: string): string[] => [
  join(root, 'dist/src/cli/main.js'),
  'sign',
  input,
  '-o',
  out,
  '--scheme',
  'datasketch-affine32',
  '-k',
  String(K),
  '--backend',
  backend,
  '--threads',
  threads,
  '-q',
];
// Interleaved, so that a neighbour's load falls on every contender alike: this build, datasketch, the baseline, then again.
const load = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const loadBefore = load();
const runs: { python: Python & Run; ours: Run; base?: Run }[] = [];
for (let r = 0; r < repeat; r++) {
  const ours = timed(process.execPath, signArgs('.', npy));
  const reference = timed('python3', ['-c', PYTHON, input, npy]); // compares its rows with ours
  const base = baseline === undefined ? undefined : timed(process.execPath, signArgs(baseline, join(dir, 'base.npy')));
  if (base !== undefined && !readFileSync(npy).equals(readFileSync(join(dir, 'base.npy'))))
    throw new Error('this build and the baseline wrote different .npy files');
  runs.push({
    python: { ...(JSON.parse(reference.stdout) as Python), wall: reference.wall, cpu: reference.cpu },
    ours,
    base,
  });
}
const loadAfter = load();
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const best = (xs: number[]): number => Math.min(...xs);
const python = runs[0].python;
const theirs = median(runs.map((r) => r.python.wall));
const bulk = median(runs.map((r) => r.python.bulk_s));
const shingle = median(runs.map((r) => r.python.shingle_s));
const ours = median(runs.map((r) => r.ours.wall));
const cpu = (xs: (number | undefined)[]): string =>
  xs.some((x) => x === undefined) ? 'n/a' : `${fmt(median(xs as number[]))} s`;
const mb = statSync(input).size / 1e6;
const fmt = (x: number, digits = 2): string =>
  x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const walls = (xs: number[]): string => xs.map((x) => fmt(x)).join(' / ');
console.log(`### gpudedup sign --scheme datasketch-affine32 vs datasketch 2.0.0 MinHash.bulk (k = ${K}, word 5-grams)`);
console.log();
console.log(
  `${input}: ${python.documents.toLocaleString('en-US')} documents, ${python.shingles.toLocaleString('en-US')} shingles, ${fmt(mb, 1)} MB on disk; rows equal: ${python.equal_rows} of ${python.documents}`,
);
console.log(
  `${repeat} interleaved round${repeat === 1 ? '' : 's'}, medians (each round's wall in the last column); load average before ${loadBefore}, after ${loadAfter}`,
);
console.log();
console.log('| | wall, whole process (median) | CPU (user + sys) | of which / against datasketch | walls |');
console.log('| --- | --- | --- | --- | --- |');
console.log(
  `| datasketch 2.0.0 (Python ${execFileSync('python3', ['--version'], { encoding: 'utf8' }).trim().split(' ')[1]}) | ${fmt(theirs)} s | ${cpu(runs.map((r) => r.python.cpu))} | reading + shingling ${fmt(shingle)} s, MinHash.bulk ${fmt(bulk)} s (wall) | ${walls(runs.map((r) => r.python.wall))} |`,
);
console.log(
  `| gpudedup sign, ${backend}, ${threads} threads | ${fmt(ours)} s | ${cpu(runs.map((r) => r.ours.cpu))} | whole process ${fmt(theirs / ours, 1)}×, bulk alone ${fmt(bulk / ours, 1)}× (best round: ${fmt(bulk / best(runs.map((r) => r.ours.wall)), 1)}×) | ${walls(runs.map((r) => r.ours.wall))} |`,
);
if (baseline !== undefined) {
  const base = median(runs.map((r) => r.base!.wall));
  console.log(
    `| baseline (${baseline}), same flags | ${fmt(base)} s | ${cpu(runs.map((r) => r.base!.cpu))} | whole process ${fmt(theirs / base, 1)}×, bulk alone ${fmt(bulk / base, 1)}×; this build ${fmt(base / ours, 2)}× the baseline's speed, same .npy | ${walls(runs.map((r) => r.base!.wall))} |`,
  );
}
