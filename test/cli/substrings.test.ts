/**
 * `gpudedup substrings` as a user runs it: repeated spans cut from the later
 * documents, every other byte of their lines as it was, documents left empty
 * dropped, the spans table and the report; `--cut all`; `--min-tokens`; the refusals.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runCli, tempDir, runCliHere } from '../support/cli.js';

const P =
  'This paragraph is boilerplate that every page repeats, a licence header of sorts, long enough to count: ☃ éè.';

function corpus(dir: string): { path: string; lines: string[] } {
  const lines = [
    `{"id": 12345678901234567890, "text": ${JSON.stringify(`Intro one. ${P} Outro one.`)}, "score": 1.0, "meta": {"k": [1, "x"]}}`,
    `{"text":${JSON.stringify(`Second page: ${P}`)},"id":"b","score":2.50}`,
    `{"id":"c","text":${JSON.stringify(P)}}`,
    `{"id":"d","text":"nothing shared here","extra":"\\u00e9"}`,
  ];
  const path = join(dir, 'in.jsonl');
  writeFileSync(path, lines.join('\n') + '\n');
  return { path, lines };
}

describe('gpudedup substrings', () => {
  it('cuts later occurrences, keeps every other byte of the lines, drops emptied documents, writes spans and report', async () => {
    const dir = tempDir('substrings-cli-');
    const { path, lines } = corpus(dir);
    const out = join(dir, 'out.jsonl');
    const r = await runCli([
      'substrings',
      path,
      '-o',
      out,
      '--spans',
      join(dir, 'spans.csv'),
      '--report',
      join(dir, 'r.json'),
      '--min-length',
      '40',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/2 repeated spans of ≥ 40 bytes/);
    const written = readFileSync(out, 'utf8').split('\n');
    const cutP = ` ${P}`; // the space before the paragraph repeats too (document 2 has ": " before it, document 1 ". ")
    expect(written).toEqual([
      lines[0],
      lines[1].replace(JSON.stringify(`Second page: ${P}`), JSON.stringify('Second page:')),
      lines[3],
      '',
    ]);
    expect(Buffer.byteLength(cutP)).toBeGreaterThan(40);
    const p0 = Buffer.byteLength('Intro one.');
    const spans = readFileSync(join(dir, 'spans.csv'), 'utf8');
    expect(spans).toBe(
      `id,start,end,first_id,first_start\nb,12,${12 + Buffer.byteLength(cutP)},12345678901234567890,${p0}\nc,0,${Buffer.byteLength(P)},12345678901234567890,${p0 + 1}\n`,
    );
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'));
    expect(report).toMatchObject({
      documents: 4,
      documentsTouched: 2,
      documentsDropped: 1,
      spans: 2,
      bytesCut: Buffer.byteLength(cutP) + Buffer.byteLength(P),
    });
    expect(report.topSpans[0]).toMatchObject({ firstId: '12345678901234567890' });
  });

  it('--cut all cuts the first occurrence too; --spans JSONL by its name', async () => {
    const dir = tempDir('substrings-cli-');
    const { path, lines } = corpus(dir);
    const out = join(dir, 'out.jsonl');
    const r = await runCli([
      'substrings',
      path,
      '-o',
      out,
      '--spans',
      join(dir, 'spans.jsonl'),
      '--cut',
      'all',
      '--min-length',
      '40',
      '-q',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).toBe('');
    const first = JSON.parse(
      readFileSync(out, 'utf8')
        .split('\n')[0]
        .replace(/"id": (\d+)/, '"id": "$1"'),
    );
    expect(first.text).toBe('Intro one. Outro one.');
    expect(readFileSync(join(dir, 'spans.jsonl'), 'utf8').split('\n').filter(Boolean)).toHaveLength(3);
    expect(lines).toHaveLength(4);
  });

  it('--min-tokens: runs of normalized tokens (case, wraps folded) cut in the original bytes', async () => {
    const dir = tempDir('substrings-cli-');
    const { path, lines } = corpus(dir);
    const wrapped = join(dir, 'wrapped.jsonl');
    const wrappedText = `Fifth: ${P.toUpperCase().replaceAll(' ', '\n')} (end)`;
    const upper = `{"id":"e","text":${JSON.stringify(wrappedText)},"n":[1]}`;
    writeFileSync(wrapped, `${upper}\n`);
    const out = join(dir, 'out.jsonl');
    const spans = join(dir, 'spans.csv');
    const report = join(dir, 'r.json');
    const page = join(dir, 'r.html');
    const args = ['substrings', path, wrapped, '-o', out, '--spans', spans, '--report', report, '--min-tokens', '8'];
    const r = await runCli([...args, '--report-html', page]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/3 repeated spans of ≥ 8 tokens/);
    expect(readFileSync(spans, 'utf8')).toBe(
      'id,start,end,first_id,first_start\n' +
        `b,13,${13 + Buffer.byteLength(P)},12345678901234567890,11\n` +
        `c,0,${Buffer.byteLength(P)},12345678901234567890,11\n` +
        `e,7,${7 + Buffer.byteLength(P.toUpperCase())},12345678901234567890,11\n`,
    );
    expect(readFileSync(out, 'utf8').split('\n')).toEqual([
      lines[0],
      lines[1].replace(JSON.stringify(`Second page: ${P}`), JSON.stringify('Second page: ')),
      lines[3],
      upper.replace(/"text":"[^"]*"/, '"text":"Fifth:  (end)"'),
      '',
    ]);
    const html = readFileSync(page, 'utf8');
    expect(html).toContain('shortest span (--min-tokens, normalized tokens)');
    expect(html).toMatch(/data-field="minTokens" data-value="8"/);
    expect(html).not.toContain('data-field="minLength"');
    expect(JSON.parse(readFileSync(report, 'utf8'))).toMatchObject({
      minTokens: 8,
      documents: 5,
      documentsTouched: 3,
      documentsDropped: 1,
      spans: 3,
    });
  });

  it('refuses nothing to write, an output over its input and a bad --min-length, in one line each', async () => {
    const dir = tempDir('substrings-cli-');
    const { path } = corpus(dir);
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"id":"a","text":"fine"}\n{"id":"b","text":\n');
    const cases: Array<[string[], RegExp]> = [
      [['substrings', bad, '--report', join(dir, 'r.json')], /bad\.jsonl:2: malformed JSON/],
      [['substrings', path], /nothing to write: give -o, --spans, --report or --report-html/],
      [['substrings', path, '-o', path], /-o .*in\.jsonl/],
      [
        ['substrings', path, '--report', join(dir, 'r.json'), '--min-length', '0'],
        /minLength must be an integer from 1 to 1048576, got 0/,
      ],
      [
        ['substrings', path, '--report', join(dir, 'r.json'), '--min-length', '50', '--min-tokens', '5'],
        /--min-length \(bytes\) and --min-tokens \(tokens\) both set the shortest span: give one/,
      ],
      [
        ['substrings', path, '--report', join(dir, 'r.json'), '--min-tokens', '5', '--threads', '2'],
        /--memory-limit and --threads are the byte search's: --min-tokens runs in memory, in one thread/,
      ],
      [
        ['substrings', path, '--report', join(dir, 'r.json'), '--min-tokens', '5', '--resume'],
        /--resume continues the byte search \(--min-length\); --min-tokens runs in one pass/,
      ],
      [
        ['substrings', path, '--report', join(dir, 'r.json'), '--nfkc'],
        /--nfkc and --strip-punctuation normalize tokens: give them with --min-tokens or --against/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await runCliHere(args);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
    }
    expect(readFileSync(path, 'utf8')).toContain('nothing shared here');
  });
});

describe('gpudedup substrings interrupted', () => {
  it('SIGTERM while -o is written: exit 143, and --spans (complete by then) is not left either', async () => {
    const dir = tempDir('substrings-cli-');
    const { lines } = corpus(dir);
    const input = join(dir, 'big.jsonl');
    const copies = Array.from({ length: 3000 }, (_, c) =>
      lines.map((line) => line.replace(/"id":"(\w)"/, `"id":"$1${c}"`).replace(/"id": (\d+)/, `"id": $1${c}`)),
    );
    writeFileSync(input, copies.flat().join('\n') + '\n');
    const outDir = join(dir, 'out');
    mkdirSync(outDir);
    const args = ['substrings', input, '-o', join(outDir, 'x.jsonl'), '--spans', join(outDir, 's.csv')];
    const child = spawn(process.execPath, [CLI, ...args], { stdio: 'ignore' });
    let sent = false;
    const poll = setInterval(() => {
      if (!sent && readdirSync(outDir).some((name) => name.startsWith('.x.jsonl.'))) {
        sent = true;
        child.kill('SIGTERM');
      }
    }, 2);
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    clearInterval(poll);
    expect(sent).toBe(true);
    expect(code).toBe(143);
    expect(readdirSync(outDir)).toEqual([]);
  });
});
