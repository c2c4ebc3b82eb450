// --slot-bits 1–16 through the CLI: the stored layout, the band keys of the full
// values (the same candidates as 64-bit slots), and mixing refused by name.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readNpy } from '../../src/formats/shards/npy.js';
import { readSignatureFile } from '../../src/formats/shards/signatureFile.js';
import { makeParams } from '../../src/signatures/params.js';
import { shingleDocument } from '../../src/shingles/shingles.js';
import { pairsToBigInts, signatureRef } from '../support/reference.js';
import { CLI, runCli, tempDir, runCliHere } from '../support/cli.js';

const lines = gunzipSync(readFileSync('data/sample.jsonl.gz'))
  .toString('utf8')
  .split('\n')
  .filter(Boolean)
  .slice(0, 120);

interface Report {
  candidates: { pairs: number; verified: number } & Record<string, unknown>;
}

describe('gpudedup sign --slot-bits b < 32', () => {
  it('stores band keys + packed low bits, and dedup --signatures finds the candidates of 64-bit slots', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, lines.join('\n') + '\n');
    const common = ['--backend', 'cpu', '-k', '32', '-q'];
    for (const b of ['4', '64'])
      expect(
        (
          await runCliHere([
            'sign',
            input,
            '-o',
            join(dir, `s${b}.npy`),
            '--slot-bits',
            b,
            '--bands',
            '4',
            '--rows',
            '8',
            ...common,
          ])
        ).code,
      ).toBe(0);

    const array = await readNpy(join(dir, 's4.npy'));
    expect([array.dtype, array.rows, array.cols]).toEqual(['<u4', 120, 2 * 4 + 4]); // 4 band keys, 32 slots × 4 bits
    const file = await readSignatureFile(
      join(dir, 's4.npy'),
      makeParams({ k: 32, slotBits: 4, bandKeys: { bands: 4, rows: 8 } }),
    );
    lines.forEach((line, d) => {
      const want = signatureRef(pairsToBigInts(shingleDocument((JSON.parse(line) as { text: string }).text)), 32, 42n);
      const bytes = new Uint8Array(file.words.buffer, 4 * (d * 12 + 8), 16);
      for (let i = 0; i < 32; i++) expect(BigInt((bytes[i >> 1] >> (4 * (i & 1))) & 15)).toBe(want[i] & 15n);
    });

    const reports: Report[] = [];
    for (const b of ['4', '64']) {
      const report = join(dir, `r${b}.json`);
      const run = await runCliHere([
        'dedup',
        '--signatures',
        join(dir, `s${b}.npy`),
        '--bands',
        '4',
        '--rows',
        '8',
        '--dry-run',
        '--report',
        report,
        '-q',
      ]);
      expect(run.stderr).toBe('');
      reports.push(JSON.parse(readFileSync(report, 'utf8')) as Report);
    }
    expect(reports[0].candidates.pairs).toBe(reports[1].candidates.pairs);
    expect(reports[0].candidates.pairs).toBeGreaterThan(0);

    const mixed = await runCliHere([
      'dedup',
      '--signatures',
      join(dir, 's4.npy'),
      '--slot-bits',
      '64',
      '--dry-run',
      '--report',
      join(dir, 'x.json'),
      '-q',
    ]);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toMatch(/slotBits: 4 vs 64; bandKeys: 4 bands × 8 rows vs none/);
    const otherBands = await runCliHere([
      'dedup',
      '--signatures',
      join(dir, 's4.npy'),
      '--bands',
      '8',
      '--rows',
      '4',
      '--dry-run',
      '--report',
      join(dir, 'x.json'),
      '-q',
    ]);
    expect(otherBands.stderr).toMatch(/bandKeys: 4 bands × 8 rows vs 8 bands × 4 rows/);
  });

  it('dedup from text with --slot-bits 8 keeps b-bit rows in memory and finds the same candidates', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, lines.join('\n') + '\n');
    const reports: Report[] = [];
    for (const b of ['8', '64']) {
      const report = join(dir, `r${b}.json`);
      const run = await runCliHere([
        'dedup',
        input,
        '--slot-bits',
        b,
        '--backend',
        'cpu',
        '--dry-run',
        '--report',
        report,
        '-q',
      ]);
      expect(run.stderr).toBe('');
      reports.push(JSON.parse(readFileSync(report, 'utf8')) as Report);
    }
    expect(reports[0].candidates.pairs).toBe(reports[1].candidates.pairs);
  });

  it('resumes an interrupted OPH b-bit run to the same files as an uninterrupted one', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'in.jsonl'), lines.slice(0, 40).join('\n') + '\n');
    const common = [
      '--scheme',
      'oph',
      '--slot-bits',
      '4',
      '--bands',
      '2',
      '--rows',
      '4',
      '--backend',
      'cpu',
      '-k',
      '8',
      '--batch-size',
      '4',
      '-q',
    ];
    await runCli(['sign', join(dir, 'in.jsonl'), '-o', join(dir, 'full.npy'), ...common]);
    const out = join(dir, 'resumed.npy');
    const child = spawn(process.execPath, [CLI, 'sign', '-', '-o', out, ...common], {
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    child.stdin.write(lines.slice(0, 20).join('\n') + '\n'); // standard input stays open: the run cannot finish
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const partial = `${out}.json.partial`;
      if (existsSync(partial) && readFileSync(partial, 'utf8').split('\n').length - 2 >= 12) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('close', resolve));
    expect(existsSync(`${out}.partial`)).toBe(true);
    const result = await runCli([
      'sign',
      join(dir, 'in.jsonl'),
      '-o',
      out,
      ...common.filter((a) => a !== '-q'),
      '--resume',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/resuming after (1[2-9]|20) documents/);
    expect(readFileSync(out)).toEqual(readFileSync(join(dir, 'full.npy')));
    const strip = (path: string) => ({ ...JSON.parse(readFileSync(path, 'utf8')), backend: undefined });
    expect(strip(`${out}.json`)).toEqual(strip(join(dir, 'full.npy.json')));
  });
});
