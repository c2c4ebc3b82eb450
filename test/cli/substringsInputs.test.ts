/**
 * `gpudedup substrings` on what a new user gives it (issue 40, items 1–5): lines copied byte for byte (invalid UTF-8,
 * CRLF), the other mode's flags refused, repeated ids refused, documents left with no token dropped, binary files
 * named and counted.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir, runCliHere } from '../support/cli.js';

const P = 'the repeated block of text that is long enough to be cut here, word for word, in both of them';

/** Bytes of one JSON line from pieces: strings as UTF-8, Buffers as they are (invalid UTF-8). */
const line = (...pieces: Array<string | Buffer>): Buffer =>
  Buffer.concat(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));

describe('substrings -o copies lines as they came in (item 1)', () => {
  it('an untouched line byte for byte (invalid UTF-8, CRLF); a cut line with only its text value replaced', async () => {
    const dir = tempDir();
    const input = join(dir, 'inv.jsonl');
    const first = line(
      '{"id":"a","x":"',
      Buffer.from([0xff, 0xfe]),
      `","text":"caf`,
      Buffer.from([0xe9]),
      ` ${P}"}\r\n`,
    );
    const second = line('{"id":"b","x":"', Buffer.from([0xe9]), `", "text": "other: ${P}"}\n`);
    const third = line('{"id":"c","text":"caf', Buffer.from([0xe9]), ' latin-1 byte here"}\n');
    writeFileSync(input, Buffer.concat([first, second, third]));
    const out = join(dir, 'out.jsonl');
    const r = await runCli(['substrings', input, '-o', out, '--min-length', '40', '-q']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const cut = line('{"id":"b","x":"', Buffer.from([0xe9]), '", "text": "other:"}\n');
    expect(readFileSync(out)).toEqual(Buffer.concat([first, cut, third]));
  });

  it('--against … --action report keeps every document as it was; --action cut keeps the other bytes', async () => {
    const dir = tempDir();
    const input = join(dir, 'inv.jsonl');
    const lines = [
      line('{"id":"a","x":"', Buffer.from([0xe9]), `","text":"${P}"}\r\n`),
      line('{"id":"b","text":"caf', Buffer.from([0xe9]), ' latin-1 byte here"}\n'),
    ];
    writeFileSync(input, Buffer.concat(lines));
    const bench = join(dir, 'bench.jsonl');
    writeFileSync(bench, `${JSON.stringify({ id: 'q', text: `question: ${P}` })}\n`);
    const reported = join(dir, 'reported.jsonl');
    const report = await runCli(['substrings', input, '--against', bench, '--action', 'report', '-o', reported, '-q']);
    expect(report.code, report.stderr).toBe(0);
    expect(readFileSync(reported)).toEqual(readFileSync(input));
    const cut = join(dir, 'cut.jsonl');
    const args = ['substrings', input, '--against', bench, '--action', 'cut', '--min-tokens', '5', '-o', cut, '-q'];
    const r = await runCli([...args, '--min-remaining', '0']);
    expect(r.code, r.stderr).toBe(0);
    // The whole text was shared: nothing but the empty text is left, and the document goes (no token left).
    expect(readFileSync(cut)).toEqual(lines[1]);
  });
});

describe("substrings refuses the other mode's flags (item 2) and repeated ids (item 3)", () => {
  it('each in one line, before any work', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, `${JSON.stringify({ id: 'a', text: P })}\n${JSON.stringify({ id: 'b', text: P })}\n`);
    const bench = join(dir, 'bench.jsonl');
    writeFileSync(bench, `${JSON.stringify({ id: 'q', text: P })}\n`);
    const report = join(dir, 'r.json');
    const out = join(dir, 'out.jsonl');
    const cases: Array<[string[], RegExp]> = [
      [['--action', 'report', '--contamination', join(dir, 'c.csv'), '-o', out], /--action applies to n-gram/],
      [['--contamination', join(dir, 'c.csv'), '-o', out], /--contamination applies to n-gram decontamination/],
      [['--against', bench, '--report', report, '--min-length', '40'], /--min-length is the span search's/],
      [['--against', bench, '--report', report, '--cut', 'all'], /--cut is the span search's/],
      [['--against', bench, '--report', report, '--threads', '2'], /--threads is the span search's/],
      [['--against', bench, '--report', report, '--memory-limit', '1GiB'], /--memory-limit is the span search's/],
      [['--against', bench, '--report', report, '--min-remaining', '5'], /--min-remaining applies to .*--action cut/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(['substrings', input, ...args]);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
    const same = join(dir, 'same.jsonl');
    writeFileSync(same, `${JSON.stringify({ id: 'a', text: P })}\n${JSON.stringify({ id: 'a', text: `x ${P}` })}\n`);
    for (const mode of [
      ['--min-length', '40'],
      ['--min-tokens', '5'],
    ]) {
      const r = await runCliHere(['substrings', same, '--spans', join(dir, 'spans.csv'), ...mode]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/same\.jsonl:2: id "a" repeats the id of .*same\.jsonl:1; ids must be unique/);
    }
  });
});

describe('substrings drops a document left with no token (item 4) and names binary files (item 5)', () => {
  it('a fully repeated document surrounded by whitespace is dropped, in bytes and in tokens', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    const texts = [P, `  ${P}\n`, `\t${P}    `, `kept ${P}`];
    writeFileSync(input, texts.map((text, i) => `${JSON.stringify({ id: `d${i}`, text })}\n`).join(''));
    for (const mode of [
      ['--min-length', '40'],
      ['--min-tokens', '1', '--cut', 'all'],
    ]) {
      const out = join(dir, `out${mode[0]}.jsonl`);
      const r = await runCli(['substrings', input, '-o', out, ...mode]);
      expect(r.code, r.stderr).toBe(0);
      const kept = readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      expect(kept.every((d: { text: string }) => d.text.trim() !== '')).toBe(true);
      expect(kept.map((d: { id: string }) => d.id)).toEqual(mode[0] === '--min-length' ? ['d0', 'd3'] : ['d3']);
      expect(r.stdout).toMatch(/dropped +\d documents? left with under 1 byte or no token/);
    }
  });

  it('a binary file in a directory is noted and counted in the summary and --report', async () => {
    const dir = tempDir();
    const corpus = join(dir, 'corpus');
    mkdirSync(corpus);
    writeFileSync(join(corpus, 'a.txt'), `${P}\n`);
    writeFileSync(join(corpus, 'b.txt'), `another ${P}\n`);
    writeFileSync(join(corpus, 'blob.bin'), Buffer.from([0, 1, 2, 0, 0, 0xff, 0xfe, 0, 7]));
    const report = join(dir, 'r.json');
    const r = await runCliHere(['substrings', corpus, '--report', report, '--min-length', '40']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/skipped .*blob\.bin: a binary file/);
    expect(r.stdout).toMatch(/skipped +1 binary file \(.*blob\.bin\)/);
    expect(JSON.parse(readFileSync(report, 'utf8')).binarySkipped).toEqual([join(corpus, 'blob.bin')]);
  });
});

describe('the summary counts a repeated block once (item 11)', () => {
  it('a block in four documents is one top span ×4, whatever whitespace surrounds each copy', async () => {
    const dir = tempDir();
    const input = join(dir, 'four.jsonl');
    const texts = [`Intro. ${P} Outro a.`, `Other intro: ${P} end b`, P, `x ${P}\n`];
    writeFileSync(input, texts.map((text, i) => `${JSON.stringify({ id: `d${i}`, text })}\n`).join(''));
    const report = join(dir, 'r.json');
    const r = await runCli(['substrings', input, '--report', report, '--min-length', '40']);
    expect(r.code, r.stderr).toBe(0);
    const tops = r.stdout.split('\n').filter((l) => l.startsWith('  top'));
    expect(tops).toHaveLength(1);
    expect(tops[0]).toMatch(/^ {2}top +×4 \d+ bytes first in d0@/);
    expect(JSON.parse(readFileSync(report, 'utf8')).topSpans.map((t: { count: number }) => t.count)).toEqual([4]);
  });
});
