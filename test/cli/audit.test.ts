/**
 * `dedup --audit N --audit-file FILE` from the built CLI on the sample corpus:
 * the file's rows are the report's sample (per bin, and removed documents),
 * the same seed gives the same file, CSV, JSON Lines and Parquet hold the same
 * rows, and the options that cannot work are refused before any work.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir, runCliHere } from '../support/cli.js';

const SAMPLE = join(process.cwd(), 'data/sample.jsonl.gz');

interface AuditRow {
  kind: string;
  bin: string | null;
  id: string;
  other_id: string;
  estimate: number | null;
  exact: number;
}

function pyarrowAvailable(): boolean {
  try {
    execFileSync('python3', ['-c', 'import pyarrow'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function audited(dir: string, name: string, extra: string[] = []): Promise<{ report: any; file: string }> {
  const file = join(dir, name);
  const report = join(dir, `${name}.report.json`);
  const result = await runCli([
    'dedup',
    SAMPLE,
    '--audit',
    '25',
    '--audit-file',
    file,
    '--report',
    report,
    '--backend',
    'cpu',
    '-q',
    ...extra,
  ]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return { report: JSON.parse(readFileSync(report, 'utf8')), file };
}

const jsonl = (path: string): AuditRow[] =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));

describe('dedup --audit', () => {
  const dir = tempDir();

  it('writes the report’s sample to the audit file, the same for the same seed, in every format', async () => {
    const { report, file } = await audited(dir, 'audit.jsonl');
    const rows = jsonl(file);
    const audit = report.audit;
    const threshold = report.parameters.threshold;
    // Per bin: the file's pairs are the sample, and those reaching t are the report's count.
    for (const bin of audit.bins) {
      const inBin = rows.filter((r) => r.kind === 'pair' && r.bin === `${bin.from}-${bin.to}`);
      expect(inBin).toHaveLength(bin.sampled);
      expect(bin.sampled).toBe(Math.min(25, bin.pairs));
      expect(inBin.filter((r) => r.exact >= threshold)).toHaveLength(bin.count);
      for (const r of inBin) expect(r.estimate! >= bin.from && r.estimate! <= bin.to).toBe(true);
    }
    const removed = rows.filter((r) => r.kind === 'removed');
    expect(removed).toHaveLength(audit.removed.belowChainThreshold.sampled);
    expect(removed.filter((r) => r.exact < audit.chainThreshold)).toHaveLength(audit.removed.belowChainThreshold.count);
    expect(removed.filter((r) => r.exact < threshold)).toHaveLength(audit.removed.belowThreshold.count);
    expect(new Set(removed.map((r) => r.id)).size).toBe(removed.length);
    // Deterministic: the same seed, the same file; another seed, another sample.
    const again = await audited(dir, 'again.jsonl');
    expect(readFileSync(again.file, 'utf8')).toBe(readFileSync(file, 'utf8'));
    const other = await audited(dir, 'other.jsonl', ['--audit-seed', '7']);
    expect(readFileSync(other.file, 'utf8')).not.toBe(readFileSync(file, 'utf8'));
    // CSV and Parquet hold the same rows.
    const csv = (await audited(dir, 'audit.csv')).file;
    const lines = readFileSync(csv, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('kind,bin,id,other_id,estimate,exact');
    expect(lines).toHaveLength(rows.length + 1);
    if (pyarrowAvailable()) {
      const parquet = (await audited(dir, 'audit.parquet')).file;
      const script =
        'import pyarrow.parquet as pq, json, sys; print(json.dumps(pq.read_table(sys.argv[1]).to_pylist()))';
      expect(JSON.parse(execFileSync('python3', ['-c', script, parquet], { encoding: 'utf8' }))).toEqual(rows);
    }
  }, 180_000);

  it('audits --verify estimate --cluster-check none too (its sets read by one more pass)', async () => {
    const { report, file } = await audited(dir, 'estimate.csv', ['--verify', 'estimate', '--cluster-check', 'none']);
    expect(report.audit.precision.sampled).toBeGreaterThan(0);
    expect(report.audit.removed.belowChainThreshold.sampled).toBe(25);
    expect(readFileSync(file, 'utf8').trim().split('\n').length).toBe(report.audit.precision.sampled + 25 + 1);
  }, 120_000);

  it('names the same documents from --signatures and the corpus as when it signs itself', async () => {
    const npy = join(dir, 'sigs.npy');
    expect((await runCli(['sign', SAMPLE, '-o', npy, '--backend', 'cpu', '-q'])).code).toBe(0);
    const signed = await audited(dir, 'signed.csv');
    const presigned = await audited(dir, 'presigned.csv', ['--signatures', npy]);
    expect(readFileSync(presigned.file, 'utf8')).toBe(readFileSync(signed.file, 'utf8'));
    expect(presigned.report.audit).toEqual(signed.report.audit);
  }, 120_000);

  it('refuses what it cannot do, before any work', async () => {
    const out = join(dir, 'x.json');
    const cases: [string[], string][] = [
      [['--audit-file', join(dir, 'a.csv'), '--report', out], '--audit-file needs --audit N'],
      [['--audit', '0', '--report', out], 'audit must be a positive integer, got 0'],
      [['--audit', '5', '--audit-seed', 'x', '--report', out], 'auditSeed must be a 64-bit unsigned integer'],
    ];
    for (const [args, message] of cases) {
      const result = await runCliHere(['dedup', SAMPLE, ...args, '-q']);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain(message);
    }
    const stdin = await runCli(['dedup', '-', '--audit', '5', '--report', out, '-q'], '{"id":"a","text":"x"}\n');
    // Issue 40, item 6: standard input is copied to a file first, and audited as the file would be.
    expect(stdin.code, stdin.stderr).toBe(0);
    expect(stdin.stderr).not.toContain('can be read only once');
  }, 60_000);
});
