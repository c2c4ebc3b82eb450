/**
 * `cluster` refuses shards that were not signed alike (issue 31, item 7): a
 * shard signed with another `--text-field` was joined (exit 0, 81 of 1,000
 * kept flags wrong). Every option of the table (src/options.ts) that changes
 * a signature, a shingle set, the banding, or which documents a shard holds
 * and by what id is given to one shard of two, through the CLI's command line
 * (in this process), and `cluster` must exit 1 naming that option; the same two shards signed alike
 * join. Options that change neither (backend, threads, batch size) and
 * cluster's own (verify's rule, the cluster check, keep first|longest) are
 * not a shard's.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliHere, tempDir } from '../support/cli.js';
import { rng } from '../support/reference.js';

const dir = tempDir();
const corpus = join(dir, 'corpus.jsonl');
const base = ['--backend', 'cpu', '--threads', '1', '-q'];
const first = join(dir, 'shard-1.parquet');

/** The option, and the words of the refusal that name it. */
const VARIANTS: [string[], RegExp][] = [
  [['--scheme', 'oph'], /scheme: classic.* vs .*oph/i],
  [['--k', '64'], /k: 128 vs 64/],
  [['--seed', '7'], /seed: 42 vs 7/],
  [['--shingle', 'char'], /shingle: word vs char/],
  [['--ngram', '3'], /n: 5 vs 3/],
  [['--nfkc'], /nfkc: false vs true/],
  [['--strip-punctuation'], /stripPunctuation: false vs true/],
  [['--slot-bits', '32'], /slotBits: 64 vs 32/],
  [['--threshold', '0.7'], /threshold: 0.8 vs 0.7/],
  [['--bands', '10', '--rows', '4'], /bands: \d+ vs 10; rows: \d+ vs 4/], // both differ from the default 18 × 5
  [['--fn-weight', '1000'], /bands: 18 vs 24/], // the optimizer's weights: another banding (under P ≥ 0.999 at t)
  [['--recall-at-threshold', '0.5'], /bands: \d+ vs \d+|rows: \d+ vs \d+/],
  [['--verify', 'estimate'], /shingle sets: text ranges vs none/],
  [['--keep', 'field:q'], /keep score: none vs q/],
  [['--text-field', 'body'], /--text-field: "text" vs "body"/],
  [['--id-field', 'key'], /--id-field: "id" vs "key"/],
  [['--skip-invalid'], /--skip-invalid: false vs true/],
  [['--strict'], /--strict: false vs true/],
];

beforeAll(async () => {
  // Each line has two texts (text, body: near-duplicates among themselves differently) and two ids.
  const next = rng(5);
  const words = (n: number): string => Array.from({ length: n }, () => `w${Math.floor(next() * 300)}`).join(' ');
  const seeds = Array.from({ length: 12 }, () => words(40));
  const lines = Array.from({ length: 60 }, (_, i) => ({
    id: `d${i}`,
    key: `k${i}`,
    q: i % 7,
    text: `${seeds[i % 12]} ${words(2)}`,
    body: `${seeds[(i * 5) % 12]} ${words(3)}`,
  }));
  writeFileSync(corpus, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const signed = await runCli(['sign', corpus, '--shard', '1/2', '-o', first, ...base]);
  expect(signed.code, signed.stderr).toBe(0);
}, 60_000);

describe('cluster: shards signed otherwise are refused, naming the option', () => {
  it('the two shards signed alike join', async () => {
    const second = join(dir, 'alike-2.parquet');
    expect((await runCli(['sign', corpus, '--shard', '2/2', '-o', second, ...base])).code).toBe(0);
    const joined = await runCli(['cluster', first, second, '--clusters', join(dir, 'alike.csv'), '-q']);
    expect(joined.stderr).toBe('');
    expect(joined.code).toBe(0);
  }, 60_000);

  it.each(VARIANTS)(
    'sign --shard 2/2 %j',
    async (option, named) => {
      const second = join(dir, `${option.join('_').replace(/[^\w.]/g, '')}-2.parquet`);
      // In this process (runCliHere): 18 variants would start 36 processes; the shards alike join in real ones.
      const signed = await runCliHere(['sign', corpus, '--shard', '2/2', '-o', second, ...option, ...base]);
      expect(signed.code, signed.stderr).toBe(0);
      const joined = await runCliHere(['cluster', first, second, '--clusters', join(dir, 'out.csv'), '-q']);
      expect(joined.code, joined.stderr).toBe(1);
      expect(joined.stderr).toMatch(/does not match/);
      expect(joined.stderr).toMatch(named);
    },
    60_000,
  );
});
