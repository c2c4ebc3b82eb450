// gpudedup sign --scheme datasketch-* read by datasketch 2.0.0 (PyPI) itself:
// the Python example of docs/signatures.md run as written, and a MinHashLSH built from our
// .npy returning, for every document, the candidates of one datasketch builds
// from the same texts. Also: the scheme's dtype, seed and refusals.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { makeParams } from '../../src/signatures/params.js';
import { shingleStrings } from '../../src/shingles/sha1Shingles.js';
import { DEFAULT_NORMALIZE } from '../../src/text/normalize.js';
import { runCli, tempDir, runCliHere } from '../support/cli.js';
import { createMinHasher } from '../../src/api.js';
import { datasketchRows, describeWithDatasketch, runPython } from '../support/datasketch.js';

const corpus = gunzipSync(readFileSync('data/sample.jsonl.gz')).toString('utf8').split('\n').filter(Boolean);
const docs = corpus.map((line) => JSON.parse(line) as { id: string; text: string });

/** The Python block of docs/signatures.md that loads signatures into a MinHashLSH. */
function readmeExample(): string {
  const readme = readFileSync('docs/signatures.md', 'utf8');
  const blocks = [...readme.matchAll(/```python\n([\s\S]*?)```/g)].map((m) => m[1]);
  const block = blocks.find((b) => b.includes('MinHashLSH') && b.includes('sigs.npy.json'));
  if (!block) throw new Error('docs/signatures.md: no Python block loading sigs.npy into a MinHashLSH');
  return block;
}

async function sign(dir: string, scheme: string, extra: string[] = []): Promise<string> {
  const out = join(dir, `${scheme}.npy`);
  const result = await runCliHere([
    'sign',
    'data/sample.jsonl.gz',
    '-o',
    out,
    '--scheme',
    scheme,
    '--backend',
    'cpu',
    '--threads',
    '2',
    '-q',
    ...extra,
  ]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return out;
}

const SAME_CANDIDATES = `
import json, sys
import numpy as np
from datasketch import LeanMinHash, MinHash, MinHashLSH
npy, scheme, shingles_path = sys.argv[1], sys.argv[2], sys.argv[3]
rows = np.load(npy)
meta = json.load(open(npy + ".json"))
seed, k = int(meta["params"]["seed"]), rows.shape[1]
shingles = json.load(open(shingles_path, encoding="utf-8"))
theirs = MinHash.bulk([[s.encode("utf-8") for s in doc] for doc in shingles], num_perm=k, seed=seed, scheme=scheme)
ours = [LeanMinHash(seed=seed, hashvalues=row, scheme=scheme) for row in rows]
assert rows.dtype == theirs[0].hashvalues.dtype or scheme == "legacy", (rows.dtype, theirs[0].hashvalues.dtype)
assert all(np.array_equal(o.hashvalues, t.hashvalues) for o, t in zip(ours, theirs)), "rows differ"
lsh_ours, lsh_theirs = MinHashLSH(threshold=0.5, num_perm=k), MinHashLSH(threshold=0.5, num_perm=k)
for doc_id, o, t in zip(meta["ids"], ours, theirs):
    if not t.is_empty():
        lsh_ours.insert(doc_id, o)
        lsh_theirs.insert(doc_id, t)
pairs = 0
for doc_id, o, t in zip(meta["ids"], ours, theirs):
    a, b = sorted(lsh_ours.query(o)), sorted(lsh_theirs.query(t))
    assert a == b, (doc_id, a, b)
    pairs += len(a) - 1
print(json.dumps({"documents": len(ours), "candidates": pairs}))
`;

describeWithDatasketch('datasketch reads gpudedup sign --scheme datasketch-*', () => {
  const dir = tempDir();
  const shinglesPath = join(dir, 'shingles.json');
  writeFileSync(
    shinglesPath,
    JSON.stringify(docs.map((d) => shingleStrings(d.text, { mode: 'word', n: 5, normalize: DEFAULT_NORMALIZE }))),
  );

  for (const [scheme, dtype] of [
    ['affine32', '<u4'],
    ['affine64', '<u8'],
    ['legacy', '<u4'],
  ] as const) {
    it(`${scheme}: datasketch's dtype, seed 1, and a MinHashLSH of our rows has datasketch's own candidates for every document`, async () => {
      const out = await sign(dir, `datasketch-${scheme}`);
      expect(readFileSync(out).subarray(0, 128).toString('latin1')).toContain(`'descr': '${dtype}'`);
      const sidecar = JSON.parse(readFileSync(`${out}.json`, 'utf8')) as { params: { seed: string; slotBits: number } };
      expect(sidecar.params.seed).toBe('1');
      const result = JSON.parse(runPython(SAME_CANDIDATES, '', [out, scheme, shinglesPath])) as {
        documents: number;
        candidates: number;
      };
      expect(result.documents).toBe(docs.length);
      expect(result.candidates).toBeGreaterThan(0); // the licenses have near-duplicate versions
    });
  }

  it("docs/signatures.md's example runs as written: its row finds itself, and a new document shingled in Python finds its twin", async () => {
    const work = tempDir();
    await sign(work, 'datasketch-affine32', ['--seed', '1']);
    const { execFileSync } = await import('node:child_process');
    execFileSync('mv', [join(work, 'datasketch-affine32.npy'), join(work, 'sigs.npy')]);
    execFileSync('mv', [join(work, 'datasketch-affine32.npy.json'), join(work, 'sigs.npy.json')]);
    const twin = docs.find((d) => d.id === 'MIT')!;
    writeFileSync(join(work, 'new.txt'), twin.text);
    const output = execFileSync('python3', ['-c', readmeExample()], { cwd: work, encoding: 'utf8' }).trim().split('\n');
    expect(output[0].startsWith(`${docs[0].id} [`)).toBe(true);
    expect(output[0]).toContain(`'${docs[0].id}'`);
    expect(output[1]).toContain("'MIT'");
  });

  it('the library: createMinHasher({ scheme }) gives datasketch rows, uint64 for affine64', async () => {
    const texts = docs.slice(0, 25).map((d) => d.text);
    const hasher = await createMinHasher({ scheme: 'datasketch-affine64', k: 16, backend: 'cpu', threads: 1 });
    try {
      const { slots } = await hasher.sign(texts);
      expect(slots).toBeInstanceOf(BigUint64Array);
      const strings = texts.map((text) => shingleStrings(text, { mode: 'word', n: 5, normalize: DEFAULT_NORMALIZE }));
      const expected = datasketchRows('affine64', 1, 16, strings);
      texts.forEach((_, d) => expect(Array.from(slots.subarray(16 * d, 16 * (d + 1)), String)).toEqual(expected[d]));
    } finally {
      hasher.destroy();
    }
  });

  it('dedup bands, verifies and clusters them; another scheme is refused, naming both', async () => {
    const out = await sign(dir, 'datasketch-affine64', ['-k', '64']);
    const report = join(dir, 'report.json');
    const ok = await runCli([
      'dedup',
      'data/sample.jsonl.gz',
      '--signatures',
      out,
      '--dry-run',
      '--report',
      report,
      '-q',
    ]);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(readFileSync(report, 'utf8')).toMatch(/datasketch-2\.0\.0-affine64-sha1\/v1/);
    const mixed = await runCliHere([
      'dedup',
      'data/sample.jsonl.gz',
      '--signatures',
      out,
      '--scheme',
      'classic',
      '--dry-run',
      '--report',
      report,
      '-q',
    ]);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toMatch(
      /different parameters.*scheme: datasketch-affine64 \(datasketch's MinHash, scheme affine64\) vs classic/,
    );
    const narrower = await runCliHere([
      'dedup',
      'data/sample.jsonl.gz',
      '--signatures',
      out,
      '--scheme',
      'datasketch-affine32',
      '--dry-run',
      '--report',
      report,
      '-q',
    ]);
    expect(narrower.code).toBe(1);
    expect(narrower.stderr).toMatch(/datasketch-affine32 keeps 32-bit slots/);
  });
});

it('the datasketch schemes keep their dtype and numpy seeds', () => {
  expect(makeParams({ scheme: 'datasketch-affine32' })).toMatchObject({ seed: '1', slotBits: 32 });
  expect(makeParams({ scheme: 'datasketch-affine64', seed: 42 })).toMatchObject({ seed: '42', slotBits: 64 });
  expect(() => makeParams({ scheme: 'datasketch-legacy', slotBits: 64 })).toThrow(/keeps 32-bit slots/);
  expect(() => makeParams({ scheme: 'datasketch-affine32', seed: 2 ** 32 })).toThrow(/0 to 4294967295/);
});
