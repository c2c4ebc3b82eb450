/**
 * Outputs that would destroy an input, or fail only at the end of the run,
 * are refused before any work: one line on standard error (no backend note:
 * nothing was read or signed) and every input byte for byte as it was.
 */
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliHere, tempDir, type CliResult } from '../support/cli.js';

const lines = gunzipSync(readFileSync('data/sample.jsonl.gz'))
  .toString('utf8')
  .split('\n')
  .filter(Boolean)
  .slice(0, 60);
const corpusText = lines.join('\n') + '\n';
const CPU = ['--backend', 'cpu', '-k', '32', '--threads', '1'];

/** Refused up front: exit 1 and a single line naming the problem. */
function expectRefused(result: CliResult, pattern: RegExp): void {
  expect(result.code, result.stderr).toBe(1);
  expect(result.stderr.trim().split('\n'), result.stderr).toHaveLength(1);
  expect(result.stderr).toMatch(pattern);
}

/** The bytes of each file, to see that none changed. */
function snapshot(paths: readonly string[]): Map<string, Buffer> {
  return new Map(paths.map((p) => [p, readFileSync(p)]));
}

function expectUnchanged(before: Map<string, Buffer>): void {
  for (const [path, bytes] of before) expect(readFileSync(path).equals(bytes), `${path} changed`).toBe(true);
}

let dir: string;
let corpus: string;
let sigs: string;

beforeAll(async () => {
  dir = tempDir();
  corpus = join(dir, 'corpus.jsonl');
  writeFileSync(corpus, corpusText);
  sigs = join(dir, 's.npy');
  const signed = await runCli(['sign', corpus, '-o', sigs, ...CPU, '-q']);
  expect(signed.code, signed.stderr).toBe(0);
});

describe('refusals run in the test process (runCliHere)', () => {
  it('give the status, standard error and output that the process gives, a refusal and a bad flag alike', async () => {
    for (const args of [
      ['dedup', corpus, '--against', corpus, '-o', join(dir, 'y.jsonl'), ...CPU],
      ['dedup', corpus, '--verify', 'exactt', ...CPU],
      ['sign', corpus, '-o', '-', ...CPU],
    ]) {
      const here = await runCliHere(args);
      expect(here.code, here.stderr).toBe(1);
      expect(here).toEqual(await runCli(args));
    }
  });
});

describe('every file a command reads is an input of the output check', () => {
  it('dedup --signatures: neither the .npy nor its sidecar may be an output (also through a hard link)', async () => {
    const before = snapshot([sigs, `${sigs}.json`, corpus]);
    expectRefused(
      await runCliHere(['dedup', corpus, '--signatures', sigs, '-o', sigs, ...CPU]),
      /-o .*s\.npy: is an input \(--signatures\)/,
    );
    expectRefused(
      await runCliHere(['dedup', corpus, '--signatures', sigs, '--clusters', `${sigs}.json`, ...CPU]),
      /--clusters .*s\.npy\.json: is an input \(--signatures sidecar\)/,
    );
    const linked = join(dir, 'linked.csv');
    if (!existsSync(linked)) linkSync(sigs, linked);
    expectRefused(
      await runCliHere(['dedup', corpus, '--signatures', sigs, '--pairs', linked, ...CPU]),
      /--pairs .*linked\.csv: is the input .*s\.npy \(--signatures\)/,
    );
    expectUnchanged(before);
  });

  it('dedup --clusters-from: the table may not be -o', async () => {
    const table = join(dir, 'c.csv');
    const made = await runCli(['dedup', corpus, '--clusters', table, ...CPU, '-q']);
    expect(made.code, made.stderr).toBe(0);
    const before = snapshot([table, corpus]);
    expectRefused(
      await runCliHere(['dedup', corpus, '--clusters-from', table, '-o', table]),
      /-o .*c\.csv: is an input \(--clusters-from\)/,
    );
    expectRefused(
      await runCliHere(['dedup', corpus, '--clusters-from', table, '-o', corpus]),
      /-o .*corpus\.jsonl: is an input/,
    );
    expectUnchanged(before);
  });

  it('cluster: no shard may be --clusters or --removed', async () => {
    const shards = [1, 2].map((i) => join(dir, `shard-${i}.parquet`));
    for (const [i, shard] of shards.entries()) {
      const made = await runCli(['sign', corpus, '--shard', `${i + 1}/2`, '-o', shard, ...CPU, '-q']);
      expect(made.code, made.stderr).toBe(0);
    }
    const before = snapshot(shards);
    expectRefused(
      await runCliHere(['cluster', ...shards, '--clusters', shards[0]]),
      /--clusters .*shard-1\.parquet: is an input \(a shard\)/,
    );
    expectRefused(
      await runCliHere(['cluster', ...shards, '--removed', shards[1]]),
      /--removed .*shard-2\.parquet: is an input \(a shard\)/,
    );
    expectRefused(
      await runCliHere(['cluster', ...shards, '--emit-script', shards[1]]),
      /--emit-script .*shard-2\.parquet: is an input \(a shard\)/,
    );
    expectUnchanged(before);
  });
});

describe('an input named like a temporary is never destroyed', () => {
  it('dedup pin.jsonl.partial -o pin.jsonl keeps the input and writes its kept documents', async () => {
    const sub = join(dir, 'pin');
    mkdirSync(sub);
    const pin = join(sub, 'pin.jsonl.partial');
    writeFileSync(pin, corpusText);
    const result = await runCli(['dedup', pin, '-o', join(sub, 'pin.jsonl'), ...CPU, '-q']);
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(pin, 'utf8')).toBe(corpusText);
    // Not named .jsonl, the input is one plain-text document: the output holds it, whole.
    const kept = readFileSync(join(sub, 'pin.jsonl'), 'utf8').trim().split('\n');
    expect(kept).toHaveLength(1);
    expect((JSON.parse(kept[0]) as { text: string }).text.trim()).toBe(corpusText.trim());
    expect(readdirSync(sub).sort()).toEqual(['pin.jsonl', 'pin.jsonl.partial']);
  });

  it('dedup X.parquet.rows.partial -o X.parquet: the staged rows go elsewhere', async () => {
    const sub = join(dir, 'rows');
    mkdirSync(sub);
    const input = join(sub, 'kept.parquet.rows.partial');
    writeFileSync(input, corpusText);
    // Named neither .jsonl nor .parquet, the input is one plain-text document; it must survive the staging of the kept rows.
    const result = await runCli(['dedup', input, '-o', join(sub, 'kept.parquet'), ...CPU, '-q']);
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(input, 'utf8')).toBe(corpusText);
    expect(readdirSync(sub).sort()).toEqual(['kept.parquet', 'kept.parquet.rows.partial']);
  });

  it("sign x.npy.partial -o x.npy is refused up front: x.npy.partial is the run's checkpoint name", async () => {
    const input = join(dir, 'x.npy.partial');
    writeFileSync(input, corpusText);
    expectRefused(
      await runCliHere(['sign', input, '-o', join(dir, 'x.npy'), ...CPU]),
      /-o \(its checkpoint\) .*x\.npy\.partial: is an input/,
    );
    expect(readFileSync(input, 'utf8')).toBe(corpusText);
    expect(existsSync(join(dir, 'x.npy'))).toBe(false);
  });

  it('an input inside the --plots directory named like a plot is refused', async () => {
    const plots = join(dir, 'plots');
    mkdirSync(plots);
    const input = join(plots, 's-curve.svg');
    writeFileSync(input, 'a plain-text document that happens to have this name\n');
    const before = snapshot([input]);
    expectRefused(
      await runCliHere(['dedup', input, corpus, '--plots', plots, ...CPU]),
      /--plots .*s-curve\.svg: is an input/,
    );
    expectUnchanged(before);
  });
});

describe('output problems are found before any work', () => {
  it('an output under a file (not a directory), --plots naming a file, a missing --temp-directory', async () => {
    expectRefused(
      await runCliHere(['dedup', corpus, '-o', join(corpus, 'kept.jsonl'), ...CPU]),
      /-o .*corpus\.jsonl\/kept\.jsonl: .*corpus\.jsonl is not a directory/,
    );
    expectRefused(
      await runCliHere(['dedup', corpus, '--plots', corpus, '--report', join(dir, 'r.json'), ...CPU]),
      /--plots .*corpus\.jsonl: is a file; give a directory/,
    );
    expectRefused(
      await runCliHere([
        'dedup',
        corpus,
        '-o',
        join(dir, 'k.jsonl'),
        '--temp-directory',
        join(dir, 'no-such-dir'),
        ...CPU,
      ]),
      /--temp-directory .*no-such-dir: no such directory/,
    );
    expect(existsSync(join(dir, 'k.jsonl'))).toBe(false);
  });

  it('a read-only output directory, found before any work', async () => {
    const { chmodSync } = await import('node:fs');
    const { spawnSync } = await import('node:child_process');
    const { CLI } = await import('../support/cli.js');
    const root = process.getuid?.() === 0;
    // Permissions do not bind root: run the CLI as nobody there (setpriv, util-linux).
    if (root && spawnSync('setpriv', ['--version']).status !== 0) return;
    const sub = join(dir, 'ro');
    mkdirSync(sub);
    writeFileSync(join(sub, 'in.jsonl'), corpusText);
    const locked = join(sub, 'locked');
    mkdirSync(locked);
    for (const [path, mode] of [
      [dir, 0o755],
      [sub, 0o755],
      [join(sub, 'in.jsonl'), 0o644],
      [locked, 0o555],
    ] as const)
      chmodSync(path, mode);
    const args = [CLI, 'dedup', join(sub, 'in.jsonl'), '-o', join(locked, 'kept.jsonl'), ...CPU];
    const run = root
      ? spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, ...args], {
          encoding: 'utf8',
        })
      : spawnSync(process.execPath, args, { encoding: 'utf8' });
    chmodSync(locked, 0o755);
    expectRefused(
      { code: run.status, stdout: run.stdout, stderr: run.stderr },
      /-o .*kept\.jsonl: cannot create files in .*locked: permission denied \(EACCES\)/,
    );
  });

  it('--keep field:NAME that no document has, before signing', async () => {
    expectRefused(
      await runCliHere(['dedup', corpus, '-o', join(dir, 'k.jsonl'), '--keep', 'field:nosuch', ...CPU]),
      /--keep field:nosuch: no document has a numeric "nosuch" field/,
    );
  });
});

describe('the quieter failures of issue 19 item 15', () => {
  it('-o - writes the kept documents to standard output (no file named -), the summary to standard error', async () => {
    const sub = join(dir, 'stdout');
    mkdirSync(sub);
    const file = join(sub, 'kept.jsonl');
    const written = await runCli(['dedup', corpus, '-o', file, ...CPU, '-q']);
    expect(written.code, written.stderr).toBe(0);
    const { spawnSync } = await import('node:child_process');
    const { CLI } = await import('../support/cli.js');
    const piped = spawnSync(process.execPath, [CLI, 'dedup', corpus, '-o', '-', ...CPU], {
      cwd: sub,
      encoding: 'utf8',
    });
    expect(piped.status, piped.stderr).toBe(0);
    expect(piped.stdout).toBe(readFileSync(file, 'utf8'));
    expect(piped.stderr).toMatch(/kept/);
    expect(existsSync(join(sub, '-'))).toBe(false);
    const report = spawnSync(process.execPath, [CLI, 'dedup', corpus, '--report', '-', ...CPU], {
      cwd: sub,
      encoding: 'utf8',
    });
    expect(report.status, report.stderr).toBe(0);
    expect((JSON.parse(report.stdout) as { documents: number }).documents).toBe(60);
    expect(existsSync(join(sub, '-'))).toBe(false);
    expectRefused(await runCliHere(['sign', corpus, '-o', '-', ...CPU]), /sign -o -: .*give a file name/);
    expectRefused(
      await runCliHere(['dedup', corpus, '-o', '-', '--clusters', '-', ...CPU]),
      /-o and --clusters both name - \(standard output\)/,
    );
  });

  it('sign --resume over a finished output: complete with the same parameters, refused with others, never re-signed', async () => {
    const before = snapshot([sigs, `${sigs}.json`]);
    const mtime = statSync(sigs).mtimeMs;
    const same = await runCli(['sign', corpus, '-o', sigs, ...CPU, '--resume']);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toMatch(/s\.npy is complete \(60 documents, signed with these parameters\): nothing to resume/);
    const other = await runCli(['sign', corpus, '-o', sigs, ...CPU, '-k', '64', '--resume']);
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/--resume, but it is complete and was signed with other parameters .*k: 32 vs 64/);
    expectUnchanged(before);
    expect(statSync(sigs).mtimeMs).toBe(mtime);
  });

  it('--compression with no Parquet output is refused, naming the output', async () => {
    expectRefused(
      await runCliHere(['dedup', corpus, '--compression', 'zstd', '-o', join(dir, 'x.jsonl'), ...CPU]),
      /--compression zstd applies to Parquet outputs .*x\.jsonl is not Parquet/,
    );
    expect(existsSync(join(dir, 'x.jsonl'))).toBe(false);
  });

  it('dedup X --against X is refused', async () => {
    expectRefused(
      await runCliHere(['dedup', corpus, '--against', corpus, '-o', join(dir, 'y.jsonl'), ...CPU]),
      /--against .*corpus\.jsonl: is the corpus file .*every one of its documents would match itself/,
    );
  });

  it('dedup - copies standard input to read it twice: hybrid verification stays (issue 40, item 6)', async () => {
    const result = await runCli(['dedup', '-', '--report', join(dir, 'stdin-report.json'), ...CPU], corpusText);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/note: standard input \(-\) is read twice, so it was copied to .* first/);
    expect(result.stderr).not.toMatch(/--verify estimate/);
    expect(JSON.parse(readFileSync(join(dir, 'stdin-report.json'), 'utf8')).parameters.verify).toBe('hybrid');
  });

  it('cluster -t below the threshold the shards were banded for warns', async () => {
    const shards = [1, 2].map((i) => join(dir, `t-shard-${i}.parquet`));
    for (const [i, shard] of shards.entries()) {
      const made = await runCli(['sign', corpus, '--shard', `${i + 1}/2`, '-o', shard, ...CPU, '-t', '0.8', '-q']);
      expect(made.code, made.stderr).toBe(0);
    }
    // sign --shard bands as dedup --verify hybrid does (P ≥ 0.999 at the threshold): 10 × 3 at k = 32, as `gpudedup params`
    // says.
    const low = await runCli(['cluster', ...shards, '-t', '0.5', '--removed', join(dir, 'removed.csv')]);
    if (low.stderr.includes('DuckDB')) return; // the optional engine is not installed here
    expect(low.code, low.stderr).toBe(0);
    expect(low.stderr).toMatch(
      /warning: the shards were banded for threshold 0\.8 \(10 bands × 3 rows\): a pair at J = 0\.5 becomes a candidate with probability 73\.7 % \(99\.9 % at 0\.8\)/,
    );
    const same = await runCli(['cluster', ...shards, '--removed', join(dir, 'removed.csv')]);
    expect(same.stderr).not.toMatch(/warning/);
  });
});
