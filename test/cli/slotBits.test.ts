// --slot-bits 1–16 through the CLI: the stored layout, the band keys of the full
// values (the same candidates as 64-bit slots), and mixing refused by name.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readNpy } from '../../src/formats/npy.js';
import { readSignatureFile } from '../../src/formats/signatureFile.js';
import { makeParams } from '../../src/signatures/params.js';
import { shingleDocument } from '../../src/shingles/shingles.js';
import { pairsToBigInts, signatureRef } from '../support/reference.js';
import { runCli, tempDir } from '../support/cli.js';

const lines = gunzipSync(readFileSync('data/sample.jsonl.gz')).toString('utf8').split('\n').filter(Boolean).slice(0, 120);

interface Report {
  candidates: { pairs: number; verified: number } & Record<string, unknown>;
}

describe('gpudedup sign --slot-bits b < 32', () => {
  it('stores band keys + packed low bits, and dedup --signatures finds the candidates of 64-bit slots', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, lines.join('\n') + '\n');
    const common = ['--backend', 'cpu', '-k', '32', '-q'];
    for (const b of ['4', '64']) expect((await runCli(['sign', input, '-o', join(dir, `s${b}.npy`), '--slot-bits', b, '--bands', '4', '--rows', '8', ...common])).code).toBe(0);

    const array = await readNpy(join(dir, 's4.npy'));
    expect([array.dtype, array.rows, array.cols]).toEqual(['<u4', 120, 2 * 4 + 4]); // 4 band keys, 32 slots × 4 bits
    const file = await readSignatureFile(join(dir, 's4.npy'), makeParams({ k: 32, slotBits: 4, bandKeys: { bands: 4, rows: 8 } }));
    lines.forEach((line, d) => {
      const want = signatureRef(pairsToBigInts(shingleDocument((JSON.parse(line) as { text: string }).text)), 32, 42n);
      const bytes = new Uint8Array(file.words.buffer, 4 * (d * 12 + 8), 16);
      for (let i = 0; i < 32; i++) expect(BigInt((bytes[i >> 1] >> (4 * (i & 1))) & 15)).toBe(want[i] & 15n);
    });

    const reports: Report[] = [];
    for (const b of ['4', '64']) {
      const report = join(dir, `r${b}.json`);
      const run = await runCli(['dedup', '--signatures', join(dir, `s${b}.npy`), '--bands', '4', '--rows', '8', '--dry-run', '--report', report, '-q']);
      expect(run.stderr).toBe('');
      reports.push(JSON.parse(readFileSync(report, 'utf8')) as Report);
    }
    expect(reports[0].candidates.pairs).toBe(reports[1].candidates.pairs);
    expect(reports[0].candidates.pairs).toBeGreaterThan(0);

    const mixed = await runCli(['dedup', '--signatures', join(dir, 's4.npy'), '--slot-bits', '64', '--dry-run', '--report', join(dir, 'x.json'), '-q']);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toMatch(/slotBits: 4 vs 64; bandKeys: 4 bands × 8 rows vs none/);
    const otherBands = await runCli(['dedup', '--signatures', join(dir, 's4.npy'), '--bands', '8', '--rows', '4', '--dry-run', '--report', join(dir, 'x.json'), '-q']);
    expect(otherBands.stderr).toMatch(/bandKeys: 4 bands × 8 rows vs 8 bands × 4 rows/);
  });

  it('dedup from text with --slot-bits 8 keeps b-bit rows in memory and finds the same candidates', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, lines.join('\n') + '\n');
    const reports: Report[] = [];
    for (const b of ['8', '64']) {
      const report = join(dir, `r${b}.json`);
      const run = await runCli(['dedup', input, '--slot-bits', b, '--backend', 'cpu', '--dry-run', '--report', report, '-q']);
      expect(run.stderr).toBe('');
      reports.push(JSON.parse(readFileSync(report, 'utf8')) as Report);
    }
    expect(reports[0].candidates.pairs).toBe(reports[1].candidates.pairs);
  });
});
