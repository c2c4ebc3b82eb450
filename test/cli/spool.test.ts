/**
 * Standard input and pipes where a command reads its corpus twice (issue 40, items 6 and 7): read once, copied to
 * --temp-directory, and the run is the file's: same bands, same outputs byte for byte; the copy is counted in a note
 * and removed on every exit (done, failed, SIGTERM).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CLI, runCli, tempDir } from '../support/cli.js';

/** The first 300 documents of the bundled sample (real near-duplicates), gzipped as a user's corpus would be. */
const SAMPLE_LINES = gunzipSync(readFileSync(join(process.cwd(), 'data/sample.jsonl.gz')))
  .toString('utf8')
  .split('\n')
  .slice(0, 300)
  .join('\n');

/** The summary's parameters line: the bands and rows, the verification. */
const parameters = (summary: string): string | undefined => /^ {2}parameters .*$/m.exec(summary)?.[0];

describe('a stream read twice is copied to --temp-directory first', () => {
  it('dedup - -o --clusters --pairs from gzip on standard input: the file run, bands and outputs', async () => {
    const dir = tempDir();
    const spool = join(dir, 'spool');
    mkdirSync(spool);
    const outputs = (tag: string): string[] => [
      '-o',
      join(dir, `${tag}.jsonl`),
      '--clusters',
      join(dir, `${tag}-clusters.csv`),
      '--pairs',
      join(dir, `${tag}-pairs.csv`),
    ];
    const sample = join(dir, 'sample.jsonl.gz');
    writeFileSync(sample, gzipSync(`${SAMPLE_LINES}\n`));
    const streamed = await runCli(
      ['dedup', '-', ...outputs('stream'), '--temp-directory', spool],
      readFileSync(sample),
    );
    expect(streamed.code, streamed.stderr).toBe(0);
    expect(streamed.stderr).toMatch(
      /standard input \(-\) is read twice, so it was copied to .*spool first \([\d,]+ bytes/,
    );
    expect(streamed.stderr).not.toMatch(/--verify estimate/);
    const file = await runCli(['dedup', sample, ...outputs('file')]);
    expect(file.code, file.stderr).toBe(0);
    expect(parameters(streamed.stdout)).toBe(parameters(file.stdout));
    expect(parameters(streamed.stdout)).toMatch(/18 bands × 5 rows .* verify hybrid/);
    for (const name of ['', '-clusters', '-pairs']) {
      const ext = name === '' ? 'jsonl' : 'csv';
      expect(readFileSync(join(dir, `stream${name}.${ext}`)), name).toEqual(
        readFileSync(join(dir, `file${name}.${ext}`)),
      );
    }
    expect(readdirSync(spool)).toEqual([]);
  });

  it('substrings - -o and index add - -o: the file run, invalid UTF-8 kept', async () => {
    const dir = tempDir();
    const lines = Buffer.concat([
      Buffer.from('{"id":"a","text":"caf'),
      Buffer.from([0xe9]),
      Buffer.from(' one two three four five six seven"}\r\n{"id":"b","text":"unrelated words here"}\n'),
    ]);
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, lines);
    const substrings = await runCli(['substrings', '-', '-o', join(dir, 's.jsonl'), '--temp-directory', dir], lines);
    expect(substrings.code, substrings.stderr).toBe(0);
    expect(readFileSync(join(dir, 's.jsonl'))).toEqual(lines);
    const added = await runCli(['index', 'create', join(dir, 'idx'), '-', '-o', join(dir, 'added.jsonl')], lines);
    expect(added.code, added.stderr).toBe(0);
    expect(readFileSync(join(dir, 'added.jsonl'))).toEqual(lines);
    expect(readdirSync(dir).filter((name) => name.endsWith('.spool'))).toEqual([]);
  });

  it('the copy is removed when the run fails, and when SIGTERM stops it', async () => {
    const dir = tempDir();
    const spool = join(dir, 'spool');
    mkdirSync(spool);
    const bad = await runCli(
      ['dedup', '-', '-o', join(dir, 'o.jsonl'), '--temp-directory', spool],
      '{"id":1,"text":\n',
    );
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/-:1: malformed JSON/);
    expect(readdirSync(spool)).toEqual([]);
    // A stream that has not ended: the copy exists while it is read; SIGTERM then.
    const child = spawn(process.execPath, [CLI, 'dedup', '-', '-o', join(dir, 'o.jsonl'), '--temp-directory', spool], {
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    child.stdin.write(SAMPLE_LINES.slice(0, 50_000));
    const copied = await new Promise<boolean>((resolve) => {
      const started = Date.now();
      const poll = setInterval(() => {
        const there = readdirSync(spool).length > 0;
        if (there || Date.now() - started > 20_000) {
          clearInterval(poll);
          resolve(there);
        }
      }, 20);
    });
    expect(copied).toBe(true);
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    child.stdin.destroy();
    expect(code).toBe(143);
    expect(readdirSync(spool)).toEqual([]);
  });

  it('refuses a missing --temp-directory before reading the stream', async () => {
    const dir = tempDir();
    const r = await runCli(['dedup', '-', '-o', join(dir, 'o.jsonl'), '--temp-directory', join(dir, 'nope')], 'x');
    expect(r.code).not.toBe(0);
    expect(
      r.stderr
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('gpudedup:')),
    ).toEqual([expect.stringMatching(/--temp-directory .*nope: no such directory/)]);
  });
});
