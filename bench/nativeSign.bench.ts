/**
 * `gpudedup sign --threads 1` against a native Rust reference doing the same work, whole process
 * against whole process, in one run (issue 29: "sign --threads 1 ≥ 0.7× the native reference"):
 *
 *   npm run bench:native [-- CORPUS.jsonl] [--documents 16000] [--repeat 3] [--portable] [--keep DIR]
 *
 * - The reference, bench/native/rust-minhash (src/main.rs says what it does, step by step), is built
 *   here with `cargo build --release --locked` (crates from crates.io, fetched once; CARGO_NET_OFFLINE=true
 *   builds from the local cache), with RUSTFLAGS="-C target-cpu=native": the machine's own instruction set,
 *   as the C reference of bench:kernels is built (-march=native); on an AVX-512 machine LLVM then keeps
 *   the u128 products scalar (BMI2 mulx) and does the fold, add and minimum eight slots at a time in
 *   AVX-512 vectors. --portable builds for the target's baseline instead (x86-64: a scalar `mul` and
 *   compare per slot), as one would ship it. Each has its own target directory.
 * - The corpus: CORPUS, or `node dist/bench/scaleCorpus.js DOCUMENTS` (default 16000, ~32 MB of real
 *   licence text) written into a temporary directory.
 * - First a small corpus of awkward documents (Unicode case mappings and final sigma, every kind of
 *   white space, 1–4 and 0 tokens, lone surrogates, invalid UTF-8, numeric and missing ids, blank,
 *   CRLF and lone-CR lines) is signed by both, then one untimed round on the corpus (warm caches), then --repeat
 *   timed rounds, interleaved (the order alternates each round): (a) `node dist/src/cli/main.js sign
 *   CORPUS -o X.npy --threads 1 --backend cpu -q`, (b) the Rust program. Wall time from this process,
 *   CPU time (user + sys) from GNU time (/usr/bin/time; without it CPU time is n/a).
 * - Every run's .npy must be byte-identical to the other's, and the ids equal; otherwise the bench
 *   names the rows that differ (id, slots differing, the document's non-ASCII characters) and
 *   exits with status 1.
 * - Reported: medians of the timed rounds; the ratio Rust ÷ gpudedup (≥ 0.7 meets issue 29's target),
 *   by wall and by CPU time; MB/s of the corpus file; CPU ms per MB; the load average before and after.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const GENERATOR = fileURLToPath(new URL('./scaleCorpus.js', import.meta.url));
/** From dist/bench/ (compiled) the repository's bench/native/rust-minhash is two levels up. */
const CRATE = fileURLToPath(new URL('../../bench/native/rust-minhash/', import.meta.url));
const TIME = '/usr/bin/time';
const K = 128;

const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : fallback;
};
const flag = (name: string): boolean => {
  const at = args.indexOf(name);
  if (at >= 0) args.splice(at, 1);
  return at >= 0;
};
const documents = Number(option('--documents', '16000'));
const repeat = Number(option('--repeat', '3'));
const keep = option('--keep', '');
const targetCpuNative = !flag('--portable');
if (args.some((a) => a.startsWith('-')) || args.length > 1 || !(repeat >= 1) || !(documents >= 1)) {
  console.error(
    'usage: node dist/bench/nativeSign.bench.js [CORPUS.jsonl] [--documents 16000] [--repeat 3] [--portable] [--keep DIR]',
  );
  process.exit(2);
}

const dir = keep === '' ? mkdtempSync(join(tmpdir(), 'gpudedup-bench-native-')) : keep;
mkdirSync(dir, { recursive: true });
const load = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const fmt = (x: number, digits = 2): string =>
  x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

try {
  const exe = buildReference();
  const rustc = execFileSync('rustc', ['--version'], { encoding: 'utf8' }).trim();

  // The awkward documents first: a difference there is a difference in the specification's reading.
  const edge = join(dir, 'edge.jsonl');
  writeFileSync(edge, edgeCorpus());
  signGpudedup(edge, join(dir, 'edge-gd.npy'));
  signRust(exe, edge, join(dir, 'edge-rs.npy'));
  const edgeRows = compare(edge, join(dir, 'edge-gd.npy'), join(dir, 'edge-rs.npy'));

  let corpus = args[0];
  if (corpus === undefined) {
    corpus = join(dir, `corpus-${documents}.jsonl`);
    if (!existsSync(corpus))
      execFileSync(process.execPath, [GENERATOR, String(documents), corpus], {
        stdio: ['ignore', 'ignore', 'inherit'],
      });
  }
  const bytes = statSync(corpus).size;
  const mb = bytes / 1e6;
  const gdNpy = join(dir, 'gd.npy');
  const rsNpy = join(dir, 'rs.npy');

  // One untimed round (page cache, Node's compile cache, the binary), checked like the timed ones.
  signGpudedup(corpus, gdNpy);
  signRust(exe, corpus, rsNpy);
  const rows = compare(corpus, gdNpy, rsNpy);

  const loadBefore = load();
  const rounds: { gpudedup: Timed; rust: Timed }[] = [];
  for (let r = 0; r < repeat; r++) {
    // Alternating who goes first, so that a neighbour's burst falls on both alike.
    let gpudedup: Timed;
    let rust: Timed;
    if (r % 2 === 0) {
      gpudedup = signGpudedup(corpus, gdNpy);
      rust = signRust(exe, corpus, rsNpy);
    } else {
      rust = signRust(exe, corpus, rsNpy);
      gpudedup = signGpudedup(corpus, gdNpy);
    }
    compare(corpus, gdNpy, rsNpy);
    rounds.push({ gpudedup, rust });
  }
  const loadAfter = load();

  const wall = (who: 'gpudedup' | 'rust'): number => median(rounds.map((r) => r[who].wall));
  const cpuOf = (who: 'gpudedup' | 'rust'): number | undefined =>
    rounds.some((r) => r[who].cpu === undefined) ? undefined : median(rounds.map((r) => r[who].cpu!));
  const walls = (who: 'gpudedup' | 'rust'): string => rounds.map((r) => fmt(r[who].wall)).join(' / ');
  const cpuText = (who: 'gpudedup' | 'rust'): string => {
    const c = cpuOf(who);
    return c === undefined ? 'n/a' : `${fmt(c)} s`;
  };
  const cpuPerMb = (who: 'gpudedup' | 'rust'): string => {
    const c = cpuOf(who);
    return c === undefined ? 'n/a' : fmt((c * 1000) / mb, 1);
  };
  const ratioWall = wall('rust') / wall('gpudedup');
  const cpuG = cpuOf('gpudedup');
  const cpuR = cpuOf('rust');
  const ratioCpu = cpuG !== undefined && cpuR !== undefined ? cpuR / cpuG : undefined;
  const rustName = `rust-minhash (${rustc.split(' ').slice(0, 2).join(' ')}, --release${targetCpuNative ? ', -C target-cpu=native' : ', portable'}, u128)`;

  console.log(`### gpudedup sign --threads 1 vs the native Rust reference (whole process, k = ${K}, word 5-grams)`);
  console.log();
  console.log(
    `${corpus}: ${rows.toLocaleString('en-US')} documents, ${fmt(mb, 1)} MB on disk; .npy byte-identical in every run, ids equal (and on ${edgeRows} awkward documents)`,
  );
  console.log(`${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, Node ${process.version}, ${rustc}`);
  console.log(
    `${repeat} interleaved round${repeat === 1 ? '' : 's'} after an untimed one, medians; load average before ${loadBefore}, after ${loadAfter}`,
  );
  console.log();
  console.log('| | wall (median) | CPU, user + sys (median) | MB/s (wall) | CPU ms per MB | walls |');
  console.log('| --- | --: | --: | --: | --: | --- |');
  console.log(
    `| ${rustName} | ${fmt(wall('rust'))} s | ${cpuText('rust')} | ${fmt(mb / wall('rust'), 1)} | ${cpuPerMb('rust')} | ${walls('rust')} |`,
  );
  console.log(
    `| gpudedup sign --threads 1 --backend cpu | ${fmt(wall('gpudedup'))} s | ${cpuText('gpudedup')} | ${fmt(mb / wall('gpudedup'), 1)} | ${cpuPerMb('gpudedup')} | ${walls('gpudedup')} |`,
  );
  console.log();
  console.log(
    `Ratio (Rust time ÷ gpudedup time; issue 29's target ≥ 0.70): by wall ${fmt(ratioWall)}×` +
      (ratioCpu === undefined ? '' : `, by CPU time ${fmt(ratioCpu)}×`) +
      ` (best rounds: ${fmt(Math.min(...rounds.map((r) => r.rust.wall)) / Math.min(...rounds.map((r) => r.gpudedup.wall)))}×)`,
  );
} finally {
  if (keep === '') rmSync(dir, { recursive: true, force: true });
}

interface Timed {
  wall: number;
  cpu?: number;
}

/** Builds the reference (once; cargo skips an up-to-date build) and returns the executable's path. */
function buildReference(): string {
  try {
    execFileSync('cargo', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error('bench:native needs cargo (Rust): https://rustup.rs; nothing was measured');
  }
  const targetDir = join(CRATE, 'target', targetCpuNative ? 'native' : 'portable');
  const env: NodeJS.ProcessEnv = { ...process.env, CARGO_TARGET_DIR: targetDir };
  // Exactly these flags, whatever the environment holds: the build is the one the results name.
  if (targetCpuNative) env.RUSTFLAGS = '-C target-cpu=native';
  else delete env.RUSTFLAGS;
  execFileSync('cargo', ['build', '--release', '--locked', '--quiet', '--manifest-path', join(CRATE, 'Cargo.toml')], {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return join(targetDir, 'release', process.platform === 'win32' ? 'rust-minhash.exe' : 'rust-minhash');
}

/** Runs a command; its wall seconds and CPU seconds (user + sys of the process and its children, from GNU time). */
function timed(command: string, commandArgs: string[]): Timed {
  const log = join(dir, 'time.log');
  const withTime = existsSync(TIME);
  const started = performance.now();
  if (withTime)
    execFileSync(TIME, ['-f', '%U %S', '-o', log, command, ...commandArgs], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  else execFileSync(command, commandArgs, { stdio: ['ignore', 'inherit', 'inherit'] });
  const wall = (performance.now() - started) / 1000;
  if (!withTime) return { wall };
  const [user, system] = readFileSync(log, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
  return { wall, cpu: user + system };
}

function signGpudedup(input: string, out: string): Timed {
  return timed(process.execPath, [CLI, 'sign', input, '-o', out, '--threads', '1', '--backend', 'cpu', '-q']);
}

function signRust(exe: string, input: string, out: string): Timed {
  return timed(exe, [input, '-o', out, '-q']);
}

/**
 * Checks the two .npy files byte for byte and the ids one for one; returns the row count. On a
 * difference, names the rows (up to 10) and what might explain each, then exits with status 1.
 */
function compare(input: string, gdPath: string, rsPath: string): number {
  const gd = readFileSync(gdPath);
  const rs = readFileSync(rsPath);
  const gdIds = (JSON.parse(readFileSync(`${gdPath}.json`, 'utf8')) as { ids: string[] }).ids;
  const rsIds = (JSON.parse(readFileSync(`${rsPath}.ids.json`, 'utf8')) as { ids: string[] }).ids;
  const problems: string[] = [];
  if (gd.length !== rs.length) problems.push(`${gdPath} has ${gd.length} bytes, ${rsPath} ${rs.length}`);
  if (!gd.subarray(0, 128).equals(rs.subarray(0, 128))) {
    problems.push(
      `headers differ: gpudedup ${JSON.stringify(gd.subarray(10, 128).toString('latin1').trim())}, Rust ${JSON.stringify(rs.subarray(10, 128).toString('latin1').trim())}`,
    );
  }
  if (gdIds.length !== rsIds.length) problems.push(`gpudedup signed ${gdIds.length} documents, Rust ${rsIds.length}`);
  const idDiffs = gdIds.flatMap((id, i) => (id !== rsIds[i] ? [i] : []));
  if (idDiffs.length > 0) {
    problems.push(
      `${idDiffs.length} ids differ, e.g. ${idDiffs
        .slice(0, 5)
        .map((i) => `row ${i}: ${JSON.stringify(gdIds[i])} vs ${JSON.stringify(rsIds[i])}`)
        .join('; ')}`,
    );
  }
  const rowBytes = 8 * K;
  const rows = Math.min(gd.length, rs.length) > 128 ? Math.floor((Math.min(gd.length, rs.length) - 128) / rowBytes) : 0;
  const rowDiffs: number[] = [];
  for (let r = 0; r < rows; r++) {
    const at = 128 + r * rowBytes;
    if (!gd.subarray(at, at + rowBytes).equals(rs.subarray(at, at + rowBytes))) rowDiffs.push(r);
  }
  if (rowDiffs.length > 0) {
    const texts = documentTexts(input, new Set(rowDiffs.slice(0, 10)));
    problems.push(`${rowDiffs.length} of ${rows} signature rows differ:`);
    for (const r of rowDiffs.slice(0, 10)) {
      const at = 128 + r * rowBytes;
      let slots = 0;
      for (let i = 0; i < K; i++)
        if (!gd.subarray(at + 8 * i, at + 8 * i + 8).equals(rs.subarray(at + 8 * i, at + 8 * i + 8))) slots++;
      const empty = (b: Buffer): boolean => b.subarray(at, at + rowBytes).every((x) => x === 0xff);
      const text = texts.get(r) ?? '';
      const unusual = [...new Set([...text].filter((c) => c.codePointAt(0)! > 0x7e || c.codePointAt(0)! < 0x20))];
      problems.push(
        `  row ${r} (id ${JSON.stringify(gdIds[r])}): ${slots} of ${K} slots differ${empty(gd) ? ', empty for gpudedup' : ''}${empty(rs) ? ', empty for Rust' : ''}; ` +
          (unusual.length === 0
            ? 'the text is printable ASCII: not a Unicode difference (a bug in one of the two)'
            : `its characters beyond printable ASCII (lowercasing, White_Space or UTF-8 may differ there): ${unusual
                .slice(0, 20)
                .map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`)
                .join(' ')}`),
      );
    }
  }
  if (problems.length > 0) {
    console.error(`bench:native: gpudedup and the Rust reference disagree on ${input}:\n${problems.join('\n')}`);
    process.exit(1);
  }
  return rows;
}

/** The texts of the given rows (documents in input order: the non-blank lines), read as gpudedup reads JSON Lines. */
function documentTexts(input: string, rows: Set<number>): Map<number, string> {
  const out = new Map<number, string>();
  let row = 0;
  for (const line of readFileSync(input, 'utf8').split(/\r\n|\n|\r/)) {
    if (line.trim() === '') continue;
    if (rows.has(row)) {
      try {
        out.set(row, String((JSON.parse(line) as { text: unknown }).text));
      } catch {
        out.set(row, line);
      }
    }
    row++;
  }
  return out;
}

/**
 * JSON Lines of awkward documents, bytes and all: what the two implementations must read alike.
 * (Not here: integer ids beyond 2^64, which gpudedup keeps digit for digit and serde_json reads as a
 * float, and duplicate keys in one object: both ids only, or refused by serde.)
 */
function edgeCorpus(): Buffer {
  const line = (record: Record<string, unknown>): string => JSON.stringify(record);
  const ws = [
    '\u0009',
    '\u000b',
    '\u000c',
    '\u0085',
    '\u00a0',
    '\u1680',
    '\u2000',
    '\u2005',
    '\u200a',
    '\u2028',
    '\u2029',
    '\u202f',
    '\u205f',
    '\u3000',
  ];
  const lines: (string | Buffer)[] = [
    line({ id: 'upper', text: 'THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG AND THE QUICK BROWN FOX' }),
    line({
      id: 'sigma',
      text: "ΟΔΥΣΣΕΥΣ ΣΟΦΟΣ Σ ΑΣ. ΑΣΑ Α.Σ ΑΣ\u0301 ΑΣ\u0301Β ΑΣ-Β ΑΣ' Σ'Α ΑΣ\u00ad ΑΣ\u00adΒ ΌΣΟΣ ΌΣΟΣ, ΣΣ",
    }),
    line({ id: 'sigma-short', text: 'ΑΣ' }),
    line({ id: 'turkish', text: 'İSTANBUL İı IJ ǅ ǈ ǋ ǲ ẞ ΐ Ω K Å ⅷ Ⓐ' }),
    line({ id: 'scripts', text: 'ДОБРЫЙ ДЕНЬ ՀԱՅԵՐԵՆ ᲠᲣᲡᲗᲐᲕᲔᲚᲘ Ꭰ Ꭱ Ꭲ ꭰ 𐐀𐐁 𐓀 𞤀𞤁 𑢠 𖹀 ᏸ ＡＢＣ full width' }),
    line({ id: 'cjk-emoji', text: '東京は晴れです 今日も いい天気 👩‍👩‍👧 🇯🇵 e\u0301 ñ n\u0303 ﬁ ﬀ' }),
    line({
      id: 'white-space',
      text: [
        'one',
        'two',
        'three',
        'four',
        'five',
        'six',
        'seven',
        'eight',
        'nine',
        'ten',
        'eleven',
        'twelve',
        'thirteen',
        'fourteen',
        'fifteen',
      ]
        .map((w, i) => w + ws[i % ws.length])
        .join(''),
    }),
    line({ id: 'not-white-space', text: 'a\u200bb c\ufeffd e\u180ef g\u200dh i\u2060j k l m n' }),
    line({ id: 'one-token', text: 'Hello' }),
    line({ id: 'four-tokens', text: '  Four  TOKENS only here  ' }),
    line({ id: 'five-tokens', text: 'exactly five tokens are here' }),
    line({ id: 'six-tokens', text: 'exactly six tokens are here now' }),
    line({ id: 'repeats', text: 'a a a a a a a a a a a a a a a b a a a a a' }),
    line({ id: 'empty', text: '' }),
    line({ id: 'spaces-only', text: ' \t\n\u3000\u00a0 ' }),
    '{"id":"lone-surrogates","text":"abc \\ud800 def \\udc00x \\ud83d\\ude00 \\uD83D ghi \\\\ud800 jkl mno"}',
    Buffer.concat([
      Buffer.from('{"id":"invalid-utf8","text":"bad \u00e9 '),
      Buffer.from([0xff, 0x20, 0xc3, 0x28, 0x20, 0xe2, 0x82, 0x20, 0xf0, 0x9f, 0x98, 0x20, 0xed, 0xa0, 0x80]),
      Buffer.from(' bytes here and there"}'),
    ]),
    line({ id: 7, text: 'numeric id seven, a short document' }),
    line({ id: -3, text: 'a negative id' }),
    line({ id: 5.0, text: 'five point oh' }) + '\r',
    '{"id":1.5,"text":"one point five"}',
    line({ id: 'before-lone-cr', text: 'a lone carriage return ends a line' }) +
      '\r' +
      line({ text: 'as node:readline reads: this one is line 23' }),
    '',
    '   ',
    line({ text: 'no id: the line number' }),
    line({ id: null, text: 'a null id: the line number' }),
    line({ id: 'escapes', text: 'tab\there new\nline quote" back\\slash \u0000 nul \u001f unit' }),
    line({
      id: 'extra-fields',
      meta: { nested: [1, 2, { text: 'not this' }] },
      text: 'the text field after another field',
      url: 'https://example.com',
    }),
    line({
      id: 'long',
      text: Array.from(
        { length: 400 },
        (_, i) =>
          ['Σοφία', 'ΜΑΘΗΜΑΤΙΚΆ', 'İzmir', 'Straße', 'ÉCOLE', 'naïve', 'word', 'ǄUNGLA', 'ΣΣ'][i % 9] +
          (i % 7) +
          (i % 2 === 0 ? ' ' : '\u00a0'),
      ).join(''),
    }),
  ];
  return Buffer.concat(
    lines.map((l) => Buffer.concat([typeof l === 'string' ? Buffer.from(l) : l, Buffer.from('\n')])),
  );
}
