import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readNpy } from '../../src/formats/shards/npy.js';
import { readSignatureFile } from '../../src/formats/shards/signatureFile.js';
import { makeParams } from '../../src/signatures/params.js';
import { makeHashFamily } from '../../src/signatures/hashFamily.js';
import { signBatchOnCpu } from '../../src/signatures/cpuSigner.js';
import { shingleDocument } from '../../src/shingles/shingles.js';
import { u64 } from '../../src/math/u64.js';
import { CLI, runCli, tempDir, runCliHere } from '../support/cli.js';

const SAMPLE = 'data/sample.jsonl.gz';
const sampleLines = gunzipSync(readFileSync(SAMPLE)).toString('utf8').split('\n').filter(Boolean);
// A small real slice keeps these tests fast; the full corpus runs in the benchmark.
const slice = sampleLines.slice(0, 40).join('\n') + '\n';

describe('gpudedup sign on real files', () => {
  it('writes a .npy and sidecar equal to the library signatures, one row per document in input order', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'in.jsonl'), slice);
    const out = join(dir, 'sigs.npy');
    const result = await runCli(['sign', join(dir, 'in.jsonl'), '-o', out, '--backend', 'cpu', '-k', '16']);
    expect(result.stderr).toMatch(/^(backend .*\n)*$/); // notes only: no warning, no error;
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/signed 40 documents/);
    const file = await readSignatureFile(out, makeParams({ k: 16 }));
    const records = slice
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; text: string });
    expect(file.ids).toEqual(records.map((r) => r.id));
    const family = makeHashFamily(16, u64(0, 42));
    records.forEach((record, d) => {
      const set = shingleDocument(record.text);
      const want = signBatchOnCpu(family, { shingles: set, offsets: Uint32Array.of(0, set.length / 2) });
      expect(file.words.subarray(d * 32, (d + 1) * 32)).toEqual(want);
    });
    expect(readdirSync(dir).sort()).toEqual(['in.jsonl', 'sigs.npy', 'sigs.npy.json']);
  });

  it('reads gzip, standard input and plain JSONL identically', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'plain.jsonl'), slice);
    writeFileSync(join(dir, 'packed.data'), gzipSync(slice)); // gzip found by its magic bytes, not its name
    const common = ['--backend', 'cpu', '-k', '8', '-q'];
    await runCli(['sign', join(dir, 'plain.jsonl'), '-o', join(dir, 'a.npy'), ...common]);
    await runCli(['sign', '-', '-o', join(dir, 'b.npy'), ...common], gzipSync(slice));
    await runCli(['sign', '-', '-o', join(dir, 'c.npy'), ...common], slice);
    const a = readFileSync(join(dir, 'a.npy'));
    expect(readFileSync(join(dir, 'b.npy'))).toEqual(a);
    expect(readFileSync(join(dir, 'c.npy'))).toEqual(a);
  });

  it('recognizes gzip on standard input when the first chunk holds only one byte', async () => {
    const dir = tempDir();
    const out = join(dir, 'g.npy');
    const child = spawn(process.execPath, [CLI, 'sign', '-', '-o', out, '--backend', 'cpu', '-k', '8', '-q'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const packed = gzipSync(slice);
    child.stdin.write(packed.subarray(0, 1));
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.stdin.end(packed.subarray(1));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code, stderr).toBe(0);
    expect((await readSignatureFile(out)).ids).toHaveLength(40);
  });

  it('signs a directory of plain-text files, one document per file, in sorted order', async () => {
    const dir = tempDir();
    const docs = join(dir, 'docs');
    mkdirSync(join(docs, 'sub'), { recursive: true });
    writeFileSync(join(docs, 'b.txt'), 'the second document has a few words in it');
    writeFileSync(join(docs, 'a.txt'), gzipSync('the first document is gzip compressed on disk'));
    writeFileSync(join(docs, 'sub', 'c.md'), '');
    writeFileSync(join(docs, '.hidden'), 'skipped');
    const out = join(dir, 's.npy');
    const result = await runCli(['sign', docs, '-o', out, '--backend', 'cpu', '-k', '4']);
    expect(result.code).toBe(0);
    const file = await readSignatureFile(out);
    expect(file.ids).toEqual([join(docs, 'a.txt'), join(docs, 'b.txt'), join(docs, 'sub', 'c.md')]);
    expect(file.empty).toEqual([2]);
    expect(Array.from(file.words.subarray(16, 24)).every((w) => w === 0xffffffff)).toBe(true);
    expect(result.stdout).toMatch(/empty\s+1/);
  });

  it('drops a UTF-8 byte order mark at the start of a plain-text file, as it does for JSONL', async () => {
    const dir = tempDir();
    const docs = join(dir, 'docs');
    mkdirSync(docs);
    writeFileSync(join(docs, 'a.txt'), 'Byte order marks are not part of the text');
    writeFileSync(join(docs, 'b.txt'), '\ufeffByte order marks are not part of the text');
    const out = join(dir, 'bom.npy');
    const result = await runCli(['sign', docs, '-o', out, '--backend', 'cpu', '-k', '4', '-q']);
    expect(result.code, result.stderr).toBe(0);
    const { words } = await readSignatureFile(out);
    expect(words.subarray(8, 16)).toEqual(words.subarray(0, 8));
  });

  it('keeps the low 32 bits with --slot-bits 32', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'in.jsonl'), slice);
    await runCli(['sign', join(dir, 'in.jsonl'), '-o', join(dir, 'w.npy'), '--backend', 'cpu', '-k', '8', '-q']);
    await runCli([
      'sign',
      join(dir, 'in.jsonl'),
      '-o',
      join(dir, 'h.npy'),
      '--backend',
      'cpu',
      '-k',
      '8',
      '--slot-bits',
      '32',
      '-q',
    ]);
    const wide = await readNpy(join(dir, 'w.npy'));
    const half = await readNpy(join(dir, 'h.npy'));
    expect([half.dtype, half.rows, half.cols]).toEqual(['<u4', 40, 8]);
    expect(Array.from(half.words)).toEqual(Array.from(wide.words).filter((_, i) => i % 2 === 0));
  });

  it('finishes a multi-batch run on CPU worker threads (no exit while the last batch is on a worker)', async () => {
    // Batches big enough to go to the workers (shingles·k ≥ 2^20): the pipeline has two in flight at once.
    const dir = tempDir();
    const lines = Array.from({ length: 480 }, (_, d) => {
      const words = Array.from({ length: 60 }, (_, j) => `w${(d * 7 + j * 13) % 3000}`);
      return JSON.stringify({ id: `d${d}`, text: words.join(' ') });
    });
    writeFileSync(join(dir, 'in.jsonl'), lines.join('\n') + '\n');
    const out = join(dir, 'sigs.npy');
    const args = ['sign', join(dir, 'in.jsonl'), '-o', out, '--backend', 'cpu', '--batch-size', '160'];
    const result = await runCli([...args, '--threads', '2']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/signed 480 documents/);
    await runCli([...args, '--threads', '1', '-o', join(dir, 'one.npy')]);
    expect(readFileSync(out)).toEqual(readFileSync(join(dir, 'one.npy')));
  });

  it('refuses to read signatures back with different parameters, naming each difference', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'in.jsonl'), slice);
    const out = join(dir, 's.npy');
    await runCli(['sign', join(dir, 'in.jsonl'), '-o', out, '--backend', 'cpu', '-k', '8', '--seed', '7', '-q']);
    await expect(readSignatureFile(out, makeParams({ k: 8, seed: 7 }))).resolves.toBeDefined();
    await expect(readSignatureFile(out, makeParams({ k: 16, seed: 8 }))).rejects.toThrow(/seed: 7 vs 8; k: 8 vs 16/);
    await expect(readSignatureFile(out, makeParams({ k: 8, seed: 7, shingle: 'char' }))).rejects.toThrow(
      /shingle: word vs char/,
    );
  });
});

describe('gpudedup sign on bad input', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['malformed JSON', '{"id": 1, "text": "ok"}\n{"id": 2, "text": \n', /bad\.jsonl:2: malformed JSON/],
    [
      'a missing text field',
      '{"id": 1, "text": "ok"}\n\n{"id": 3, "body": "x"}\n',
      /bad\.jsonl:3: missing text field "text"/,
    ],
    [
      'a text that is not a string',
      '{"id": 1, "text": ["a"]}\n',
      /bad\.jsonl:1: text field "text" is an array, not a string/,
    ],
    ['a line that is not an object', '[1, 2]\n', /bad\.jsonl:1: expected a JSON object/],
  ];
  for (const [label, content, message] of cases) {
    it(`fails on ${label}, naming file and line, and leaves no output`, async () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'bad.jsonl'), content);
      const result = await runCli([
        'sign',
        join(dir, 'bad.jsonl'),
        '-o',
        join(dir, 'out.npy'),
        '--backend',
        'cpu',
        '-q',
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(readdirSync(dir)).toEqual(['bad.jsonl']);
    });
  }

  it('skips and counts invalid lines with --skip-invalid', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'bad.jsonl'),
      '{"id":"a","text":"one two"}\nnot json\n{"id":"b"}\n{"id":"c","text":"three four"}\n',
    );
    const out = join(dir, 'out.npy');
    const result = await runCli([
      'sign',
      join(dir, 'bad.jsonl'),
      '-o',
      out,
      '--backend',
      'cpu',
      '-k',
      '4',
      '--skip-invalid',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/skipped\s+2 invalid lines/);
    expect(result.stderr).toMatch(/bad\.jsonl:2: malformed JSON/);
    expect((await readSignatureFile(out)).ids).toEqual(['a', 'c']);
  });

  it('names a missing input file', async () => {
    const dir = tempDir();
    const result = await runCliHere(['sign', join(dir, 'nope.jsonl'), '-o', join(dir, 'o.npy'), '-q']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/nope\.jsonl: no such file or directory/);
  });

  it('leaves no complete-looking file when killed mid-run', async () => {
    const dir = tempDir();
    const out = join(dir, 'partial.npy');
    const child = spawn(process.execPath, [CLI, 'sign', '-', '-o', out, '--backend', 'cpu', '-q'], {
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    child.stdin.on('error', () => undefined); // the kill may cut a write still in flight: EPIPE is expected
    child.stdin.write(slice); // standard input stays open: the run cannot finish
    await new Promise((resolve) => setTimeout(resolve, 1500));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('close', resolve));
    expect(existsSync(out)).toBe(false);
    expect(existsSync(`${out}.json`)).toBe(false);
  });
});

describe('gpudedup sign --resume', () => {
  const common = ['--backend', 'cpu', '-k', '8', '--batch-size', '4', '-q'];

  /** Starts a run on standard input, feeds it `lines`, and kills it once `batches` batches are on disk. */
  async function interruptedRun(out: string, lines: string, batches: number): Promise<void> {
    const child = spawn(process.execPath, [CLI, 'sign', '-', '-o', out, ...common], {
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    child.stdin.on('error', () => undefined); // the kill may cut a write still in flight: EPIPE is expected
    child.stdin.write(lines); // standard input stays open: the run cannot finish by itself
    const partial = `${out}.json.partial`;
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const written = existsSync(partial) ? readFileSync(partial, 'utf8').split('\n').length - 2 : 0;
      if (written >= 4 * batches) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('close', resolve));
  }

  it('continues an interrupted run and ends with the same files as an uninterrupted one', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'in.jsonl'), slice);
    await runCli(['sign', join(dir, 'in.jsonl'), '-o', join(dir, 'full.npy'), ...common]);

    const out = join(dir, 'resumed.npy');
    await interruptedRun(out, sampleLines.slice(0, 20).join('\n') + '\n', 3);
    expect(existsSync(out)).toBe(false);
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
    const full = JSON.parse(readFileSync(join(dir, 'full.npy.json'), 'utf8'));
    const resumed = JSON.parse(readFileSync(`${out}.json`, 'utf8'));
    expect({ ...resumed, backend: undefined }).toEqual({ ...full, backend: undefined });
    expect(existsSync(`${out}.partial`)).toBe(false);
  });

  it('refuses to resume with other parameters or changed input, and keeps the partial files', async () => {
    const dir = tempDir();
    const out = join(dir, 's.npy');
    await interruptedRun(out, slice, 2);
    const otherK = await runCli(['sign', '-', '-o', out, ...common, '-k', '16', '--resume'], slice);
    expect(otherK.code).toBe(1);
    expect(otherK.stderr).toMatch(/cannot resume, the interrupted run used different parameters: k: 8 vs 16/);
    const changed = sampleLines.slice(1, 41).join('\n') + '\n';
    const otherInput = await runCli(['sign', '-', '-o', out, ...common, '--resume'], changed);
    expect(otherInput.code).toBe(1);
    expect(otherInput.stderr).toMatch(/cannot resume: input document 1 has id .* the input changed/);
    expect(existsSync(`${out}.partial`)).toBe(true);
    const ok = await runCli(['sign', '-', '-o', out, ...common, '--resume'], slice);
    expect(ok.code, ok.stderr).toBe(0);
    expect((await readSignatureFile(out)).ids).toHaveLength(40);
  });
});
