// `gpudedup params --plot` and `gpudedup dedup --plots`: the app's SVG plots, written by the CLI.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { binSimilarities, similarityHistogramSvg } from '../../src/plots/histogram.js';
import { sCurveSvg } from '../../src/plots/sCurve.js';
import { runCli, tempDir } from '../support/cli.js';

describe('plots from the command line', () => {
  it('params --plot writes the S-curve of the chosen bands and rows', async () => {
    const dir = tempDir();
    const plot = join(dir, 'plots', 's-curve.svg');
    const result = await runCli(['params', '--threshold', '0.7', '-k', '64', '--json', '--plot', plot]);
    expect(result.code).toBe(0);
    const { bands, rows } = JSON.parse(result.stdout) as { bands: number; rows: number };
    expect(readFileSync(plot, 'utf8')).toBe(sCurveSvg({ bands, rows, threshold: 0.7 }));
    expect(readdirSync(join(dir, 'plots'))).toEqual(['s-curve.svg']); // no .partial left behind
  });

  it('dedup --plots writes the S-curve and the histogram of the verified pairs it wrote to --pairs', async () => {
    const dir = tempDir();
    const input = join(dir, 'corpus.jsonl');
    const sample = gunzipSync(readFileSync('data/sample.jsonl.gz')).toString('utf8').trim().split('\n').slice(0, 300);
    writeFileSync(input, sample.join('\n') + '\n');
    const pairs = join(dir, 'pairs.csv');
    const result = await runCli([
      'dedup',
      input,
      '--pairs',
      pairs,
      '--plots',
      join(dir, 'plots'),
      '--verify',
      'exact',
      '--bands',
      '16',
      '--rows',
      '8',
      '--backend',
      'cpu',
      '-q',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(readFileSync(join(dir, 'plots', 's-curve.svg'), 'utf8')).toBe(
      sCurveSvg({ bands: 16, rows: 8, threshold: 0.8 }),
    );
    const exact = readFileSync(pairs, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => Number(line.split(',').at(-1)));
    expect(exact.length).toBeGreaterThan(10);
    const histogram = readFileSync(join(dir, 'plots', 'similarity-histogram.svg'), 'utf8');
    // The pairs file rounds to six decimals; the bins are 0.01 wide, so the counts are the same.
    expect(histogram).toBe(similarityHistogramSvg({ similarities: exact, threshold: 0.8, measure: 'exact Jaccard' }));
    const drawn = [...histogram.matchAll(/data-count="(\d+)"/g)].map((m) => Number(m[1]));
    expect(drawn.reduce((a, b) => a + b, 0)).toBe(exact.length);
    expect(binSimilarities(exact, 0.8).counts.filter((c) => c > 0)).toEqual(drawn);
  });
});
