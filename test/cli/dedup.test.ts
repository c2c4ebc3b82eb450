// `gpudedup dedup` and `gpudedup params` run as a user would, on real licence texts plus planted duplicates (the
// refusals of bad parameters, and params after its first run, in this process: runCliHere).
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { runCli, runCliHere, tempDir } from '../support/cli.js';

interface Record_ {
  id: string;
  text: string;
  [key: string]: unknown;
}

const sample = gunzipSync(readFileSync('data/sample.jsonl.gz'))
  .toString('utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Record_);
const byId = new Map(sample.map((r) => [r.id, r]));
const pick = (id: string): Record_ => byId.get(id)!;

// Real near-duplicate pairs (Jaccard 0.86–0.97 per data/README.md), unrelated licences, and planted cases.
const mit = pick('MIT');
const words = mit.text.split(' ');
const records: Record_[] = [
  pick('0BSD'),
  mit,
  pick('Apache-2.0'),
  pick('JSON'), // MIT + one sentence (0.857)
  pick('CC-BY-1.0'),
  pick('CC-BY-SA-1.0'), // 0.968 to CC-BY-1.0
  { id: 'empty-1', text: '   ' },
  pick('ISC'),
  { id: 'mit-exact', text: mit.text.replace(/ /g, '  ').toUpperCase() }, // identical after normalization
  { id: 'empty-2', text: '' },
  { id: 'mit-edited', text: [...words.slice(0, 40), 'PLANTED', ...words.slice(41)].join(' ') }, // one word replaced
  pick('Zlib'),
];
const corpus = records.map((r) => JSON.stringify(r)).join('\n') + '\n';
const lines = corpus.trim().split('\n');

function setup(): { dir: string; input: string } {
  const dir = tempDir();
  const input = join(dir, 'corpus.jsonl');
  writeFileSync(input, corpus);
  return { dir, input };
}

const parseCsv = (text: string): string[][] =>
  text
    .trim()
    .split('\n')
    .map((l) => l.split(','));

describe('gpudedup dedup', () => {
  it('writes kept lines verbatim in input order, a cluster row per document, pairs and a report', async () => {
    const { dir, input } = setup();
    const out = join(dir, 'out.jsonl');
    const result = await runCli([
      'dedup',
      input,
      '-o',
      out,
      '--clusters',
      join(dir, 'clusters.csv'),
      '--pairs',
      join(dir, 'pairs.csv'),
      '--report',
      join(dir, 'report.json'),
      '--backend',
      'cpu',
    ]);
    expect(result.stderr).toMatch(/^(backend .*\n)*$/); // notes only: no warning, no error;
    expect(result.code).toBe(0);
    const clusters = parseCsv(readFileSync(join(dir, 'clusters.csv'), 'utf8'));
    expect(clusters[0]).toEqual(['id', 'cluster', 'kept']);
    expect(clusters.slice(1).map((r) => r[0])).toEqual(records.map((r) => r.id));
    const row = new Map(clusters.slice(1).map((r) => [r[0], { cluster: r[1], kept: r[2] === 'true' }]));
    // The exact duplicate and the one-word edit join MIT's cluster; MIT (first) is kept.
    expect(row.get('mit-exact')!.cluster).toBe(row.get('MIT')!.cluster);
    expect(row.get('mit-edited')!.cluster).toBe(row.get('MIT')!.cluster);
    expect(row.get('MIT')!.kept).toBe(true);
    expect(row.get('mit-exact')!.kept).toBe(false);
    expect(row.get('mit-edited')!.kept).toBe(false);
    // Empty documents: kept, each alone.
    expect(row.get('empty-1')!.kept).toBe(true);
    expect(row.get('empty-2')!.kept).toBe(true);
    expect(row.get('empty-1')!.cluster).not.toBe(row.get('empty-2')!.cluster);
    // Unrelated licences stay apart.
    expect(new Set(['0BSD', 'Apache-2.0', 'ISC', 'Zlib', 'MIT'].map((id) => row.get(id)!.cluster)).size).toBe(5);
    // Clusters are numbered by first appearance.
    const firstSeen = [...new Set(clusters.slice(1).map((r) => Number(r[1])))];
    expect(firstSeen).toEqual(firstSeen.map((_, i) => i));
    // Output: exactly the kept lines, verbatim, in input order.
    const kept = records.map((r, i) => (row.get(r.id)!.kept ? lines[i] : undefined)).filter((l) => l !== undefined);
    expect(readFileSync(out, 'utf8')).toBe(kept.join('\n') + '\n');
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    expect(report).toMatchObject({
      documents: 12,
      empty: 2,
      exactDuplicates: 1,
      kept: kept.length,
      removed: 12 - kept.length,
    });
    expect(report.parameters).toMatchObject({
      threshold: 0.8,
      bands: 18,
      rows: 5,
      verify: 'hybrid',
      estimateErrorRate: 0.001,
      clusterCheck: 'representative',
      chainDelta: 0.1,
      maxRepresentatives: 8,
    });
    expect(report.backend).toMatch(/CPU/);
    // Every candidate decided once, by the estimate or (inside the margin) by exact Jaccard.
    const v = report.verification;
    expect(v.byEstimate.accepted + v.byEstimate.rejected + v.byExact.accepted + v.byExact.rejected).toBe(
      report.candidates.pairs,
    );
    expect(v.byEstimate.accepted + v.byExact.accepted).toBe(report.candidates.verified);
    expect(report.clusterCheck.threshold).toBeCloseTo(0.7, 12);
    const pairs = parseCsv(readFileSync(join(dir, 'pairs.csv'), 'utf8'));
    expect(pairs[0]).toEqual(['id_a', 'id_b', 'estimate', 'exact']);
    expect(pairs.slice(1).map((p) => p.slice(0, 2))).toContainEqual(['MIT', 'mit-edited']);
    // Hybrid: exact Jaccard where the estimate was inside its margin (then ≥ t), empty where the estimate was sure.
    for (const p of pairs.slice(1)) expect(p[3] === '' ? Number(p[2]) : Number(p[3])).toBeGreaterThanOrEqual(0.8);
    expect(pairs.length - 1).toBe(report.candidates.verified);
    expect(result.stdout).toMatch(
      /decided\s+by estimate \d+ accepted, \d+ rejected; by exact Jaccard \d+ accepted, \d+ rejected/,
    );
    expect(result.stdout).toMatch(/verify hybrid, cluster check representative \(removed ≥ 0\.70 to the kept\)/);
    const estimate = await runCli([
      'dedup',
      input,
      '--pairs',
      join(dir, 'pe.csv'),
      '--verify',
      'estimate',
      '--cluster-check',
      'none',
      '--backend',
      'cpu',
      '-q',
    ]);
    expect(estimate.code).toBe(0);
    const estimatePairs = parseCsv(readFileSync(join(dir, 'pe.csv'), 'utf8'));
    expect(estimatePairs[0]).toEqual(['id_a', 'id_b', 'estimate']);
    for (const p of estimatePairs.slice(1)) expect(Number(p[2])).toBeGreaterThanOrEqual(0.8);
    expect(result.stdout).toMatch(/documents in\s+12/);
    expect(result.stdout).toMatch(/exact duplicates\s+1/);
  });

  it('--verify exact reports exact Jaccard, never below the threshold; --keep longest and field:NAME choose the kept one', async () => {
    const { dir, input } = setup();
    await runCli([
      'dedup',
      input,
      '--clusters',
      join(dir, 'c.jsonl'),
      '--pairs',
      join(dir, 'p.csv'),
      '--verify',
      'exact',
      '--keep',
      'longest',
      '--backend',
      'cpu',
      '-q',
    ]);
    const pairs = parseCsv(readFileSync(join(dir, 'p.csv'), 'utf8'));
    expect(pairs[0]).toEqual(['id_a', 'id_b', 'estimate', 'exact']);
    for (const p of pairs.slice(1)) expect(Number(p[3])).toBeGreaterThanOrEqual(0.8);
    const rows = readFileSync(join(dir, 'c.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const kept = (id: string): boolean => rows.find((r) => r.id === id).kept;
    // "mit-exact" doubles every space: the longest member of MIT's cluster.
    expect(kept('mit-exact')).toBe(true);
    expect(kept('MIT')).toBe(false);

    const scored = records.map((r) => ({ ...r, quality: r.id === 'mit-edited' ? 0.9 : 0.1 }));
    writeFileSync(join(dir, 'scored.jsonl'), scored.map((r) => JSON.stringify(r)).join('\n'));
    await runCli([
      'dedup',
      join(dir, 'scored.jsonl'),
      '--clusters',
      join(dir, 'c2.csv'),
      '--keep',
      'field:quality',
      '--backend',
      'cpu',
      '-q',
    ]);
    const c2 = new Map(parseCsv(readFileSync(join(dir, 'c2.csv'), 'utf8')).map((r) => [r[0], r[2]]));
    expect(c2.get('mit-edited')).toBe('true');
    expect(c2.get('MIT')).toBe('false');
  });

  it('--dry-run writes only the report', async () => {
    const { dir, input } = setup();
    const result = await runCli([
      'dedup',
      input,
      '-o',
      join(dir, 'out.jsonl'),
      '--clusters',
      join(dir, 'c.csv'),
      '--report',
      join(dir, 'r.json'),
      '--dry-run',
      '--backend',
      'cpu',
    ]);
    expect(result.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['corpus.jsonl', 'r.json']);
    expect(result.stdout).toMatch(/dry run/);
  });

  it('--signatures from gpudedup sign gives the same outputs, and refuses other parameters or another corpus', async () => {
    const { dir, input } = setup();
    const npy = join(dir, 'sigs.npy');
    expect((await runCli(['sign', input, '-o', npy, '--backend', 'cpu', '-q'])).code).toBe(0);
    await runCli([
      'dedup',
      input,
      '-o',
      join(dir, 'a.jsonl'),
      '--clusters',
      join(dir, 'a.csv'),
      '--backend',
      'cpu',
      '-q',
    ]);
    const viaFile = await runCli([
      'dedup',
      input,
      '-o',
      join(dir, 'b.jsonl'),
      '--clusters',
      join(dir, 'b.csv'),
      '--signatures',
      npy,
      '-q',
    ]);
    expect(viaFile.code).toBe(0);
    expect(readFileSync(join(dir, 'b.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'a.jsonl'), 'utf8'));
    expect(readFileSync(join(dir, 'b.csv'), 'utf8')).toBe(readFileSync(join(dir, 'a.csv'), 'utf8'));
    // Without the corpus: clusters from the signatures alone (exact duplicates found as identical rows).
    // hybrid (the default) needs the text: it falls back to estimate, and refuses when asked for by name.
    const alone = await runCli(['dedup', '--signatures', npy, '--clusters', join(dir, 'c.csv')]);
    expect(alone.code).toBe(0);
    expect(alone.stdout).toMatch(/verify estimate/);
    const hybridAlone = await runCli([
      'dedup',
      '--signatures',
      npy,
      '--clusters',
      join(dir, 'h.csv'),
      '--verify',
      'hybrid',
      '-q',
    ]);
    expect(hybridAlone.code).toBe(1);
    expect(hybridAlone.stderr).toMatch(/--verify hybrid needs the corpus as input/);
    expect(readFileSync(join(dir, 'c.csv'), 'utf8')).toBe(readFileSync(join(dir, 'a.csv'), 'utf8'));

    const otherK = await runCli([
      'dedup',
      input,
      '--clusters',
      join(dir, 'x.csv'),
      '--signatures',
      npy,
      '-k',
      '64',
      '-q',
    ]);
    expect(otherK.code).toBe(1);
    expect(otherK.stderr).toMatch(/different parameters.*k: 128 vs 64/);
    writeFileSync(join(dir, 'other.jsonl'), lines.slice(1).join('\n'));
    const otherCorpus = await runCli([
      'dedup',
      join(dir, 'other.jsonl'),
      '--clusters',
      join(dir, 'x.csv'),
      '--signatures',
      npy,
      '-q',
    ]);
    expect(otherCorpus.code).toBe(1);
    expect(otherCorpus.stderr).toMatch(/not the corpus that was signed/);
    // The same ids with edited texts: an emptied document, and one turned into a copy of another.
    const edited = (id: string, text: string): string =>
      records.map((r) => JSON.stringify(r.id === id ? { ...r, text } : r)).join('\n');
    writeFileSync(join(dir, 'emptied.jsonl'), edited('ISC', ''));
    const emptied = await runCli([
      'dedup',
      join(dir, 'emptied.jsonl'),
      '--clusters',
      join(dir, 'x.csv'),
      '--signatures',
      npy,
      '-q',
    ]);
    expect(emptied.code).toBe(1);
    expect(emptied.stderr).toMatch(/"ISC" has no text but its signature is not empty: not the corpus that was signed/);
    writeFileSync(join(dir, 'copied.jsonl'), edited('Zlib', pick('0BSD').text));
    const copied = await runCli([
      'dedup',
      join(dir, 'copied.jsonl'),
      '--clusters',
      join(dir, 'x.csv'),
      '--signatures',
      npy,
      '-q',
    ]);
    expect(copied.code).toBe(1);
    expect(copied.stderr).toMatch(/"Zlib" repeats the text of document 0 but not its signature/);
    expect(existsSync(join(dir, 'x.csv'))).toBe(false);
  });

  it('--against removes corpus documents near the reference set and names the match', async () => {
    const { dir, input } = setup();
    const reference = join(dir, 'eval.jsonl');
    const isc = pick('ISC').text.split(' ');
    writeFileSync(
      reference,
      [
        { id: 'eval-isc', text: [...isc.slice(0, 20), 'CHANGED', ...isc.slice(21)].join(' ') },
        { id: 'eval-isc-copy', text: pick('ISC').text }, // the reference itself holds duplicates: never deduplicated
        { id: 'eval-other', text: 'an unrelated evaluation question about prime numbers and their gaps' },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    const result = await runCli([
      'dedup',
      input,
      '-o',
      join(dir, 'out.jsonl'),
      '--against',
      reference,
      '--contamination',
      join(dir, 'cont.csv'),
      '--clusters',
      join(dir, 'c.csv'),
      '--verify',
      'exact',
      '--backend',
      'cpu',
    ]);
    expect(result.stderr).toMatch(/^(backend .*\n)*$/); // notes only: no warning, no error;
    const cont = parseCsv(readFileSync(join(dir, 'cont.csv'), 'utf8'));
    expect(cont[0]).toEqual(['id', 'reference', 'similarity', 'estimate']);
    expect(cont.slice(1).map((r) => [r[0], r[1]])).toEqual([['ISC', 'eval-isc-copy']]);
    expect(Number(cont[1][2])).toBe(1);
    const out = readFileSync(join(dir, 'out.jsonl'), 'utf8');
    expect(out).not.toContain('"id":"ISC"');
    expect(out).toContain('"id":"MIT"');
    expect(result.stdout).toMatch(/contaminated\s+1/);
  });

  it('--against: documents left after decontamination still pair in a big bucket that held the removed ones', async () => {
    const { dir } = setup();
    let state = 7;
    const randomWords = (n: number): string =>
      Array.from({ length: n }, () => {
        state = (state * 1103515245 + 12345) % 2147483648;
        return `w${(state % 100000).toString(36)}`;
      }).join(' ');
    const base = randomWords(200);
    const extra = randomWords(200);
    // c0 and c1 match the reference; x1 and x2 (Jaccard ≈ 0.99) do not (≈ 0.5). With one band of one row and
    // --max-bucket-pairs 2, all four share one big bucket [c0, x1, c1, x2]: every pair of x1 and x2 runs through c0 or c1.
    const docs = [
      { id: 'c0', text: `${base} ${randomWords(3)}` },
      { id: 'x1', text: `${base} ${extra} ${randomWords(3)}` },
      { id: 'c1', text: `${base} ${randomWords(3)}` },
      { id: 'x2', text: `${base} ${extra} ${randomWords(3)}` },
    ];
    writeFileSync(join(dir, 'big.jsonl'), docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
    writeFileSync(join(dir, 'ref.jsonl'), JSON.stringify({ id: 'r', text: base }) + '\n');
    const result = await runCli([
      'dedup',
      join(dir, 'big.jsonl'),
      '--against',
      join(dir, 'ref.jsonl'),
      '--clusters',
      join(dir, 'c.csv'),
      '--report',
      join(dir, 'r.json'),
      '--threshold',
      '0.7',
      '--bands',
      '1',
      '--rows',
      '1',
      '--max-bucket-pairs',
      '2',
      '--seed',
      '1',
      '--backend',
      'cpu',
      '-q',
    ]);
    expect(result.code).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'));
    expect(report.contaminated).toBe(2);
    const kept = new Map(
      parseCsv(readFileSync(join(dir, 'c.csv'), 'utf8'))
        .slice(1)
        .map((r) => [r[0], r[2]]),
    );
    expect([...kept]).toEqual([
      ['c0', 'false'],
      ['x1', 'true'],
      ['c1', 'false'],
      ['x2', 'false'],
    ]);
  });

  it('--skip-invalid skips malformed lines and counts them in the summary and the report', async () => {
    const { dir } = setup();
    const bad = join(dir, 'bad.jsonl');
    const copy = JSON.stringify({ ...JSON.parse(lines[1]), id: 'copy' }); // an exact duplicate under its own id
    writeFileSync(bad, [lines[0], '{"id": "x", "text": ', lines[1], copy].join('\n') + '\n');
    const result = await runCli([
      'dedup',
      bad,
      '-o',
      join(dir, 'o.jsonl'),
      '--report',
      join(dir, 'r.json'),
      '--skip-invalid',
      '--backend',
      'cpu',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/skipped\s+1 invalid line/);
    expect(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'))).toMatchObject({
      documents: 3,
      exactDuplicates: 1,
      invalidSkipped: 1,
    });
    expect(readFileSync(join(dir, 'o.jsonl'), 'utf8')).toBe(`${lines[0]}\n${lines[1]}\n`);
  });

  it('reads standard input once: copied to a file where an output or exact verification reads it again (issue 40)', async () => {
    const { dir, input } = setup();
    const streamed = await runCli(['dedup', '-', '--clusters', join(dir, 'c.csv'), '--backend', 'cpu', '-q'], corpus);
    expect(streamed.code, streamed.stderr).toBe(0);
    const file = await runCli(['dedup', input, '--clusters', join(dir, 'f.csv'), '--backend', 'cpu', '-q']);
    expect(file.code, file.stderr).toBe(0);
    expect(readFileSync(join(dir, 'c.csv'), 'utf8')).toBe(readFileSync(join(dir, 'f.csv'), 'utf8'));
    const exact = await runCli(
      ['dedup', '-', '--report', join(dir, 'r.json'), '--verify', 'exact', '--backend', 'cpu', '-q'],
      corpus,
    );
    expect(exact.code, exact.stderr).toBe(0);
    const reportOnly = await runCli(['dedup', '-', '--report', join(dir, 'r.json'), '--backend', 'cpu', '-q'], corpus);
    expect(reportOnly.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'))).toMatchObject({ documents: 12, exactDuplicates: 1 });
  });

  it('gives clear errors for bad input and bad parameters', async () => {
    const { dir, input } = setup();
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, lines[0] + '\n{"id": "x", "text": \n');
    const malformed = await runCli(['dedup', bad, '-o', join(dir, 'o.jsonl'), '--backend', 'cpu', '-q']);
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toContain(`${bad}:2: malformed JSON`);
    expect(existsSync(join(dir, 'o.jsonl'))).toBe(false);
    const half = await runCliHere(['dedup', input, '-o', join(dir, 'o.jsonl'), '--bands', '20']);
    expect(half.stderr).toMatch(/--bands and --rows go together/);
    const tooMany = await runCliHere(['dedup', input, '-o', join(dir, 'o.jsonl'), '--bands', '20', '--rows', '7']);
    expect(tooMany.stderr).toMatch(/exceeds the signature length k = 128/);
    const keep = await runCliHere(['dedup', input, '-o', join(dir, 'o.jsonl'), '--keep', 'shortest']);
    expect(keep.stderr).toMatch(/--keep <policy>.*keep must be first, longest or field:NAME/);
    const nothing = await runCliHere(['dedup', input]);
    expect(nothing.stderr).toMatch(/nothing to write/);
    const same = await runCliHere([
      'dedup',
      input,
      '--clusters',
      join(dir, 'same.csv'),
      '--pairs',
      join(dir, '.', 'same.csv'),
      '--backend',
      'cpu',
      '-q',
    ]);
    expect(same.code).toBe(1);
    expect(same.stderr).toMatch(/--clusters and --pairs both name .*same\.csv/);
    expect(existsSync(join(dir, 'same.csv'))).toBe(false);
    const threshold = await runCliHere(['dedup', input, '-o', join(dir, 'o.jsonl'), '--threshold', '1.5']);
    expect(threshold.code).not.toBe(0);
    expect(threshold.stderr).toMatch(/between 0 and 1/);
  });
});

describe('gpudedup params', () => {
  it('prints the optimized bands and rows with the S-curve table', async () => {
    const result = await runCli(['params', '--threshold', '0.8']);
    expect(result.code).toBe(0);
    // dedup's default (hybrid verification) asks for P ≥ 0.999 at the threshold: 18 × 5 (P = 0.9992).
    expect(result.stdout).toMatch(/18 bands × 5 rows/);
    expect(result.stdout).toMatch(/P ≥ 0\.999 at the threshold/);
    expect(result.stdout).toMatch(/approximate threshold \(1\/b\)\^\(1\/r\) = 0\.5610/); // (1/18)^(1/5)
    expect(result.stdout).toMatch(/expected false-negative rate at the threshold: 0\.0008/); // (1 − 0.8⁵)¹⁸
    const unconstrained = await runCliHere(['params', '--threshold', '0.8', '--recall-at-threshold', '0']);
    expect(unconstrained.stdout).toMatch(/14 bands × 9 rows/);
    expect(unconstrained.stdout).toMatch(/approximate threshold \(1\/b\)\^\(1\/r\) = 0\.7459/); // (1/14)^(1/9)
    const bad = await runCliHere(['params', '--recall-at-threshold', '1']);
    expect(bad.code).not.toBe(0);
  });

  it('given b = 20, r = 5: P = 0.470 at 0.5 and 0.975 at 0.7 (JSON)', async () => {
    const result = await runCliHere(['params', '--bands', '20', '--rows', '5', '--threshold', '0.7', '--json']);
    const json = JSON.parse(result.stdout);
    const at = (s: number): number =>
      json.candidateProbability.find((p: { similarity: number }) => p.similarity === s).probability;
    expect(at(0.5)).toBeCloseTo(0.47, 3);
    expect(at(0.7)).toBeCloseTo(0.975, 3);
    expect(json.falseNegativeRateAtThreshold).toBeCloseTo(1 - 0.9748, 3);
  });
});
