/**
 * `substrings --resume`: a search stopped after some rounds continues from
 * its checkpoint and writes exactly what an uninterrupted run writes; a
 * changed input, other parameters or a damaged checkpoint are refused naming
 * the file; a fresh run over a stale checkpoint says so and removes it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSubstrings } from '../../../src/pipeline/substrings/run.js';
import type { SubstringsConfig, SubstringsReport } from '../../../src/pipeline/substrings/config.js';
import { DEFAULT_READ } from '../../../src/io/documents.js';
import { SILENT_HOOKS, type DedupHooks } from '../../../src/pipeline/shared/config.js';
import { runCli, tempDir } from '../../support/cli.js';

const WORDS = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu ☃ ünï'.split(' ');

/** 300 documents of words from a small vocabulary (many repeats of ≥ 40 bytes), seeded. */
function writeCorpus(dir: string): string {
  let seed = 7;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const shared = Array.from({ length: 20 }, () =>
    Array.from({ length: 12 }, () => WORDS[next(WORDS.length)]).join(' '),
  );
  const lines = Array.from({ length: 300 }, (_, i) => {
    const parts = Array.from({ length: 3 + next(6) }, () =>
      next(3) === 0 ? shared[next(shared.length)] : `${WORDS[next(WORDS.length)]}${next(100000)}`,
    );
    return `{"id":"d${i}","text":${JSON.stringify(parts.join(' '))},"n":12345678901234567890}\n`;
  });
  const path = join(dir, 'corpus.jsonl');
  writeFileSync(path, lines.join(''));
  return path;
}

function config(corpus: string, dir: string, extra: Partial<SubstringsConfig> = {}): SubstringsConfig {
  return {
    inputs: [corpus],
    read: DEFAULT_READ,
    minLength: 40,
    cut: 'later',
    minRemaining: 1,
    memoryLimitBytes: 28 * 4000, // a few thousand windows a round: about a dozen rounds
    threads: 1,
    out: join(dir, 'out.jsonl'),
    spans: join(dir, 'spans.csv'),
    checkpointSeconds: 0,
    ...extra,
  };
}

/** Hooks whose search progress throws at round `at`: the run stops there, as a crash would. */
function stoppingAt(at: number): DedupHooks {
  return {
    ...SILENT_HOOKS,
    stage: (label) => ({
      update: (done: number) => {
        if (label === 'searching' && done >= at) throw new Error('stopped for the test');
      },
      stop: () => undefined,
    }),
  };
}

async function interrupted(corpus: string, dir: string, at = 4): Promise<string> {
  await expect(runSubstrings(config(corpus, dir), stoppingAt(at))).rejects.toThrow('stopped for the test');
  const checkpoint = join(dir, 'out.jsonl.partial');
  expect(existsSync(checkpoint)).toBe(true);
  expect(existsSync(join(dir, 'out.jsonl'))).toBe(false);
  return checkpoint;
}

const read = (dir: string): string[] => ['out.jsonl', 'spans.csv'].map((f) => readFileSync(join(dir, f), 'utf8'));

describe('substrings --resume', () => {
  it('continues an interrupted search and writes what an uninterrupted run writes, in process and by the CLI', async () => {
    const dir = tempDir();
    const corpus = writeCorpus(dir);
    const whole = join(dir, 'whole');
    const fresh: SubstringsReport = await runSubstrings(config(corpus, whole), SILENT_HOOKS);
    expect(fresh.search.rounds).toBeGreaterThan(6);
    expect(fresh.spans).toBeGreaterThan(50);

    const resumed = join(dir, 'resumed');
    const checkpoint = await interrupted(corpus, resumed);
    const report = await runSubstrings(config(corpus, resumed, { resume: true }), SILENT_HOOKS);
    expect(report.search.resumedRounds).toBe(3); // rounds 1–3 saved; the 4th stopped before its checkpoint
    expect(report.search.rounds).toBe(fresh.search.rounds);
    // Issue 40, item 11: the counts cover every round, the resumed ones included.
    const { resumedRounds: _, ...counts } = report.search;
    const { resumedRounds: __, ...freshCounts } = fresh.search;
    expect(counts).toEqual(freshCounts);
    expect(read(resumed)).toEqual(read(whole));
    expect(existsSync(checkpoint)).toBe(false);

    // The CLI, with other --threads and --memory-limit: the checkpoint's rounds are kept.
    const cli = join(dir, 'cli');
    await interrupted(corpus, cli, 6);
    const out = join(cli, 'out.jsonl');
    const r = await runCli(
      ['substrings', corpus, '-o', out, '--spans', join(cli, 'spans.csv'), '--min-length', '40'].concat([
        '--resume',
        '--threads',
        '2',
        '--memory-limit',
        '1GiB',
      ]),
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\(5 rounds resumed from the checkpoint\)/);
    expect(read(cli)).toEqual(read(whole));
    expect(existsSync(`${out}.partial`)).toBe(false);
  });

  it('refuses a changed input, other parameters or a damaged checkpoint, naming it; a fresh run replaces it', async () => {
    const dir = tempDir();
    const corpus = writeCorpus(dir);
    const checkpoint = await interrupted(corpus, dir);
    const before = readFileSync(checkpoint);
    const resume = (args: string[] = []) =>
      runCli(
        ['substrings', corpus, '-o', join(dir, 'out.jsonl'), '--spans', join(dir, 'spans.csv'), '--resume'].concat([
          '--min-length',
          '40',
          ...args,
        ]),
      );

    const cut = await resume(['--cut', 'all']);
    expect(cut.code).not.toBe(0);
    expect(cut.stderr.trim()).toBe(
      `gpudedup: ${checkpoint}: cannot resume: it was made with --cut later, this run has --cut all; run without ` +
        '--resume to start over',
    );

    const original = readFileSync(corpus, 'utf8');
    writeFileSync(corpus, original.replace('"d17"', '"D17"'));
    const changed = await resume();
    expect(changed.code).not.toBe(0);
    expect(changed.stderr).toContain(`${checkpoint}: cannot resume: the input changed since`);
    expect(changed.stderr.trim().split('\n')).toHaveLength(1);
    writeFileSync(corpus, original);

    const damaged = Buffer.from(before);
    damaged[damaged.length - 3] ^= 0x10;
    writeFileSync(checkpoint, damaged);
    const bad = await resume();
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain(
      `${checkpoint}: not a substrings checkpoint this version can resume (its marks do not`,
    );
    expect(existsSync(join(dir, 'out.jsonl'))).toBe(false);

    const afresh = await runCli(['substrings', corpus, '-o', join(dir, 'out.jsonl'), '--min-length', '40']);
    expect(afresh.code).toBe(0);
    expect(afresh.stderr).toContain(
      `warning: starting afresh over the checkpoint of an interrupted run (${checkpoint})`,
    );
    expect(existsSync(checkpoint)).toBe(false);
  });
});
