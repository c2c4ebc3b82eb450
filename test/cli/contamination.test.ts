import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runCli, tempDir, runCliHere } from '../support/cli.js';
import { plantedCorpus } from '../../bench/plantedItems.js';

const planted = plantedCorpus(21, 30, 10);

function writeFiles(): { dir: string; corpus: string; benchmarks: string[] } {
  const dir = tempDir();
  const corpus = join(dir, 'corpus.jsonl');
  writeFileSync(corpus, planted.corpus.map((text, i) => `${JSON.stringify({ id: `d${i}`, text })}\n`).join(''));
  const benchmarks = [0, 1].map((b) => {
    const path = join(dir, `bench${b}.jsonl`);
    const items = planted.references
      .map((text, i) => ({ id: `q${i}`, text }))
      .filter((_, i) => planted.benchmarkOf[i] === b);
    writeFileSync(path, items.map((item) => `${JSON.stringify(item)}\n`).join(''));
    return path;
  });
  return { dir, corpus, benchmarks };
}

describe('gpudedup substrings --against', () => {
  it('removes the contaminated documents, writes the span table, and counts per benchmark file', async () => {
    const { dir, corpus, benchmarks } = writeFiles();
    const out = join(dir, 'clean.jsonl');
    const table = join(dir, 'contamination.csv');
    const result = await runCli([
      'substrings',
      corpus,
      '--against',
      ...benchmarks,
      '-o',
      out,
      '--contamination',
      table,
    ]);
    expect(result.stdout).toContain(`${planted.plants.length} documents of 30 share a span of 13 or more tokens`);
    for (const [b, path] of benchmarks.entries()) {
      const documents = planted.plants.filter((p) => planted.benchmarkOf[p.reference] === b).length;
      expect(result.stdout).toContain(`  ${path}: ${documents} document`);
    }
    expect(result.code).toBe(0);
    const kept = readFileSync(out, 'utf8').split('\n').filter(Boolean);
    expect(kept.length).toBe(30 - planted.plants.length);
    const rows = readFileSync(table, 'utf8').split('\n');
    expect(rows[0]).toBe('id,reference,benchmark,start,end,reference_start,reference_end,tokens,span');
  });

  it('takes --min-tokens and --action cut', async () => {
    const { dir, corpus, benchmarks } = writeFiles();
    const out = join(dir, 'cut.jsonl');
    const result = await runCli([
      'substrings',
      corpus,
      '--against',
      benchmarks[0],
      '--min-tokens',
      '20',
      '--action',
      'cut',
      '-o',
      out,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('share a span of 20 or more tokens');
    expect(readFileSync(out, 'utf8').split('\n').filter(Boolean).length).toBe(30);
  });

  it('writes -o - to standard output, the summary then to standard error', async () => {
    const { corpus, benchmarks } = writeFiles();
    const result = await runCli(['substrings', corpus, '--against', ...benchmarks, '--action', 'report', '-o', '-']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(readFileSync(corpus, 'utf8'));
    expect(result.stderr).toContain(`${planted.plants.length} documents of 30 share a span`);
  });

  it('refuses bad input with one line', async () => {
    const { dir, corpus, benchmarks } = writeFiles();
    const out = join(dir, 'o.jsonl');
    const cases: [string[], string][] = [
      [['--min-tokens', '0', '-o', out], 'minTokens must be an integer from 1 to 100000, got 0'],
      [['--action', 'drop', '-o', out], 'action must be one of remove, cut or report, got "drop"'],
      [
        ['--spans', join(dir, 's.csv'), '-o', out],
        '--spans is the table of repeated spans; with --against the shared spans go to --contamination FILE',
      ],
      [[], 'nothing to write: give -o, --contamination or --report'],
      [
        ['--action', 'cut', '--report', join(dir, 'r.json')],
        '--action cut needs -o FILE (where the corpus goes after it)',
      ],
    ];
    for (const [args, message] of cases) {
      const result = await runCliHere(['substrings', corpus, '--against', benchmarks[0], ...args]);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain(message);
      // One line, besides commander's pointer to the help for a bad flag value.
      expect(
        result.stderr
          .trim()
          .split('\n')
          .filter((line) => !line.startsWith("(see 'gpudedup")).length,
      ).toBe(1);
    }
    const missing = await runCliHere(['substrings', corpus, '--against', join(dir, 'nope.jsonl'), '-o', out]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('nope.jsonl');
    expect(missing.stderr.trim().split('\n').length).toBe(1);
  });
});

describe('gpudedup substrings --against interrupted', () => {
  for (const [signal, exit] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal} while writing: exit ${exit}, no output and no temporary left`, async () => {
      const { dir, benchmarks } = writeFiles();
      const corpus = join(dir, 'big.jsonl');
      // Enough text that the scan runs for a while after its outputs' temporaries exist.
      const lines = planted.corpus.map((text, i) => `${JSON.stringify({ id: `d${i}`, text })}\n`).join('');
      writeFileSync(corpus, lines.repeat(100));
      const outDir = join(dir, 'out');
      mkdirSync(outDir);
      const child = spawn(
        process.execPath,
        [
          CLI,
          'substrings',
          corpus,
          '--against',
          ...benchmarks,
          '-o',
          join(outDir, 'clean.jsonl'),
          '--contamination',
          join(outDir, 'spans.csv'),
        ],
        { stdio: 'ignore' },
      );
      let sent = false;
      const poll = setInterval(() => {
        if (!sent && readdirSync(outDir).length > 0) {
          sent = true;
          child.kill(signal);
        }
      }, 10);
      const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      clearInterval(poll);
      expect(sent).toBe(true);
      expect(code).toBe(exit);
      expect(readdirSync(outDir)).toEqual([]);
    });
  }
});
