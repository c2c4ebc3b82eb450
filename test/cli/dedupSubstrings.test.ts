/**
 * `gpudedup dedup --substrings` as a user runs it: its -o and --spans equal,
 * byte for byte, `dedup -o K` followed by `substrings K` (JSONL and Parquet);
 * the search sees the kept documents only; the report's substrings section;
 * the refusals; and a signal in either phase leaves no output and no temporary.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runCli, tempDir, runCliHere } from '../support/cli.js';
import { rng } from '../support/reference.js';

const random = rng(32);
const WORDS = Array.from({ length: 500 }, (_, i) => `w${i.toString(36)}${'éxk'[i % 3]}`);
const words = (n: number): string => Array.from({ length: n }, () => WORDS[Math.floor(random() * 500)]).join(' ');

/** Shared by d0 and its near-duplicate d1 only: once d1 is removed, nothing repeats it. */
const P = `Near-duplicates share this paragraph: ${words(30)}.`;
/** Shared by d2, d3 and all of d4: cut from d3, and d4 left empty. */
const Q = `Boilerplate of distinct pages: ${words(30)} ☃.`;

/** The corpus's JSON lines: drawn once, as every test compares with them. */
const LINES = corpusLines();

function corpusLines(): string[] {
  const d0 = `${words(150)} ${P} ${words(150)}`;
  const d1 = d0.replace(/w\w+/, 'changed').replace(/ w\w+$/, ' end');
  return [
    `{"id":"d0","text":${JSON.stringify(d0)},"score":1.50,"meta":{"k":[1,"x"]}}`,
    `{"id":"d1","text":${JSON.stringify(d1)}}`,
    `{"text":${JSON.stringify(`${words(120)} ${Q} ${words(40)}`)}, "id":"d2", "n": 12345678901234567890}`,
    `{"id":"d3","text":${JSON.stringify(`${words(80)} ${Q}`)},"extra":"\\u00e9"}`,
    `{"id":"d4","text":${JSON.stringify(Q)}}`,
    ...Array.from({ length: 6 }, (_, i) => `{"id":"r${i}","text":${JSON.stringify(words(100))}}`),
  ];
}

function writeCorpus(dir: string, lines = LINES): string {
  const path = join(dir, 'in.jsonl');
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

async function ok(args: string[]): Promise<string> {
  const r = await runCli(args[0] === 'dedup' ? [...args, '--backend', 'cpu'] : args);
  expect(r.stderr.replace(/^backend .*\n/gm, ''), args.join(' ')).toBe('');
  expect(r.code, args.join(' ')).toBe(0);
  return r.stdout;
}

describe('gpudedup dedup --substrings', () => {
  it('equals dedup -o K then substrings K, byte for byte (JSONL and Parquet), on the kept documents alone', async () => {
    const dir = tempDir('dedup-substrings-');
    const input = writeCorpus(dir);
    const at = (name: string): string => join(dir, name);
    const search = ['--min-length', '40', '--min-remaining', '1'];
    // What `substrings -o x.jsonl --resume` would continue: dedup --substrings keeps no checkpoint, so leaves it be.
    writeFileSync(at('x.jsonl.partial'), 'an interrupted substrings run');
    const [combined] = await Promise.all([
      ok([
        'dedup',
        input,
        '--substrings',
        '-o',
        at('x.jsonl'),
        '--spans',
        at('xs.csv'),
        '--report',
        at('r.json'),
        ...search,
      ]),
      ok(['dedup', input, '--substrings', '-o', at('x.parquet'), '--spans', at('xs.parquet'), ...search, '-q']),
      ok(['dedup', input, '-o', at('k.jsonl'), '-q']),
      ok(['dedup', input, '-o', at('k.parquet'), '-q']),
    ]);
    await Promise.all([
      ok([
        'substrings',
        at('k.jsonl'),
        '-o',
        at('y.jsonl'),
        '--spans',
        at('ys.csv'),
        '--report',
        at('s.json'),
        ...search,
        '-q',
      ]),
      ok(['substrings', at('k.parquet'), '-o', at('y.parquet'), '--spans', at('ys.parquet'), ...search, '-q']),
    ]);
    for (const [x, y] of [
      ['x.jsonl', 'y.jsonl'],
      ['xs.csv', 'ys.csv'],
      ['x.parquet', 'y.parquet'],
      ['xs.parquet', 'ys.parquet'],
    ])
      expect(readFileSync(at(x)).equals(readFileSync(at(y))), `${x} = ${y}`).toBe(true);
    expect(readdirSync(dir).filter((name) => name.startsWith('.'))).toEqual([]); // the kept documents' temporary gone

    const written = readFileSync(at('x.jsonl'), 'utf8').split('\n');
    // d1 removed as d0's near-duplicate, so P is no longer repeated and stays in d0; Q is cut from d3, d4 dropped.
    expect(written[0]).toBe(LINES[0]);
    expect(written.some((line) => line.includes('"id":"d1"'))).toBe(false);
    expect(written[1]).toBe(LINES[2]);
    expect(written[2]).toContain('"id":"d3"');
    expect(written[2]).not.toContain(JSON.stringify(Q).slice(1, -1));
    expect(written[2]).toMatch(/"extra":"\\u00e9"}$/);
    expect(written.slice(3, -1)).toEqual(LINES.slice(5));
    const spans = readFileSync(at('xs.csv'), 'utf8').trim().split('\n');
    expect(spans.slice(1).map((row) => row.split(',')[0])).toEqual(['d3', 'd4']);

    expect(readFileSync(at('x.jsonl.partial'), 'utf8')).toBe('an interrupted substrings run');
    const report = JSON.parse(readFileSync(at('r.json'), 'utf8'));
    const alone = JSON.parse(readFileSync(at('s.json'), 'utf8'));
    expect(report.removed).toBe(1);
    const counts = ['documents', 'textBytes', 'documentsTouched', 'documentsDropped', 'spans', 'spanBytes', 'bytesCut'];
    for (const key of counts) expect(report.substrings[key], key).toBe(alone[key]);
    expect(report.substrings).toMatchObject({ documents: LINES.length - 1, documentsDropped: 1, spans: 2 });
    expect(report.substrings.topSpans).toEqual(alone.topSpans);
    expect(Object.keys(report.seconds)).toEqual(expect.arrayContaining(['writing', 'substrings search']));
    expect(combined).toMatch(/removed +1\n/);
    expect(combined).toMatch(/substrings: 10 documents, .* 2 repeated spans of ≥ 40 bytes/s);
  });

  it('refuses --substrings without -o, its flags without it, and what it cannot follow, in one line each', async () => {
    const dir = tempDir('dedup-substrings-');
    const input = writeCorpus(dir);
    const out = join(dir, 'o.jsonl');
    const cases: Array<[string[], string]> = [
      [['--substrings', '--report', join(dir, 'r.json')], '--substrings writes the kept documents with their'],
      [['-o', out, '--min-length', '50'], '--min-length applies to the exact-substring search on the kept documents'],
      [['--substrings', '-o', out, '--dry-run'], '--substrings writes -o: it cannot run with --dry-run'],
      [['--substrings', '-o', out, '--spans', input], `--spans ${input}: is an input`],
      [['--substrings', '-o', out, '--spans', out], 'both name'],
    ];
    const results = await Promise.all(cases.map(([args]) => runCliHere(['dedup', input, ...args])));
    for (const [i, r] of results.entries()) {
      expect(r.code, cases[i][0].join(' ')).not.toBe(0);
      expect(r.stderr).toContain(cases[i][1]);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(readdirSync(dir).sort()).toEqual(['in.jsonl']);
  });
});

describe('gpudedup dedup --substrings interrupted', () => {
  // SIGINT once the kept documents' temporary exists (the near-duplicate pass), SIGTERM once -o's temporary exists
  // (the search's writing pass, --spans written by then: it used to be renamed into place already, and stay).
  for (const [signal, exit, phase] of [
    ['SIGINT', 130, 'temp'],
    ['SIGTERM', 143, 'out'],
  ] as const) {
    const during = phase === 'temp' ? 'the near-duplicate pass' : "the search's writing";
    it(`${signal} during ${during}: exit ${exit}, no output and no temporary left`, async () => {
      const dir = tempDir('dedup-substrings-');
      const many = Array.from({ length: 150 }, (_, copy) =>
        LINES.map((line) => line.replace(/"id":"(\w+)"/, `"id":"$1-${copy}"`).replace(/w(\w)/g, `w$1${copy}`)),
      );
      const input = writeCorpus(dir, many.flat());
      const [outDir, temp] = [join(dir, 'out'), join(dir, 'temp')];
      mkdirSync(outDir);
      mkdirSync(temp);
      const args = ['dedup', input, '--substrings', '-o', join(outDir, 'x.jsonl'), '--spans', join(outDir, 's.csv')];
      const child = spawn(process.execPath, [CLI, ...args, '--temp-directory', temp, '--backend', 'cpu'], {
        stdio: 'ignore',
      });
      const watched = phase === 'temp' ? temp : outDir; // the kept documents' temporary, or -o's
      let sent = false;
      const poll = setInterval(() => {
        if (!sent && readdirSync(watched).some((name) => name.startsWith('.x.jsonl.'))) {
          sent = true;
          child.kill(signal);
        }
      }, 5);
      const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      clearInterval(poll);
      expect(sent).toBe(true);
      expect(code).toBe(exit);
      expect([...readdirSync(outDir), ...readdirSync(temp)]).toEqual([]);
    });
  }
});
