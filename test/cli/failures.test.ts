/** The failure cases a new user hit (issue 9): each a clear one-line error, refused before any work, or the behaviour stated. */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CLI, runCli, runCliHere, tempDir } from '../support/cli.js';
import { noGpu } from '../support/gpu.js';

const lines = gunzipSync(readFileSync('data/sample.jsonl.gz'))
  .toString('utf8')
  .split('\n')
  .filter(Boolean)
  .slice(0, 30);
const corpus = lines.join('\n') + '\n';

function setup(): { dir: string; input: string } {
  const dir = tempDir();
  const input = join(dir, 'a.jsonl');
  writeFileSync(input, corpus);
  return { dir, input };
}

const cpu = ['--backend', 'cpu', '-k', '16'];

describe('outputs never destroy inputs', () => {
  it('refuses an output that is an input, through a symlink or a hard link, before any work', async () => {
    const { dir, input } = setup();
    symlinkSync(input, join(dir, 'link.jsonl'));
    linkSync(input, join(dir, 'hard.jsonl'));
    const reference = join(dir, 'ref.jsonl');
    writeFileSync(reference, lines.slice(0, 3).join('\n') + '\n');
    const cases: [string[], RegExp][] = [
      [['dedup', input, '-o', input], /-o .*a\.jsonl: is an input; writing it would destroy it/],
      [['dedup', input, '--clusters', join(dir, 'link.jsonl')], /--clusters .*link\.jsonl: is the input .*a\.jsonl/],
      [['dedup', input, '-o', join(dir, 'hard.jsonl')], /-o .*hard\.jsonl: is the input .*a\.jsonl/],
      [['dedup', input, '-o', reference, '--against', reference], /-o .*ref\.jsonl: is an input/],
      [['sign', input, '-o', input], /-o .*a\.jsonl: is an input/],
    ];
    for (const [args, message] of cases) {
      const result = await runCliHere([...args, ...cpu]);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(readFileSync(input, 'utf8')).toBe(corpus);
    expect(readdirSync(dir).sort()).toEqual(['a.jsonl', 'hard.jsonl', 'link.jsonl', 'ref.jsonl']);
  });

  it('refuses an output naming a directory before any work, leaving nothing behind', async () => {
    const { dir, input } = setup();
    mkdirSync(join(dir, 'x'));
    for (const args of [
      ['sign', input, '-o', join(dir, 'x')],
      ['dedup', input, '-o', join(dir, 'x')],
    ]) {
      const result = await runCliHere([...args, ...cpu]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/-o .*x: is a directory; give a file name/);
    }
    expect(readdirSync(dir).sort()).toEqual(['a.jsonl', 'x']);
  });
});

describe('a full disk', () => {
  /** A tmpfs with `freePages` of 4 KiB left (needs root, as CI has), unmounted afterwards. */
  function tinyDisk(freePages: number): { path: string; release: () => void } | undefined {
    const path = join(tempDir(), 'disk');
    mkdirSync(path);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', path], { stdio: 'ignore' });
    } catch {
      return undefined;
    }
    writeFileSync(join(path, 'filler'), Buffer.alloc(65536 - freePages * 4096));
    return { path, release: () => execFileSync('umount', [path]) };
  }

  it('is an output error naming the file, not a GPU failure, while the GPU has a batch in flight', async (context) => {
    const { input } = setup();
    const disk = tinyDisk(2); // one page for the sidecar, one for the .npy: full after 7 of the 30 rows
    if (disk === undefined) return noDisk(context.skip);
    try {
      const out = join(disk.path, 's.npy');
      const result = await runCli(['sign', input, '-o', out, '--batch-size', '2', '-k', '64', '--backend', 'webgpu']);
      const missing = /webgpu backend unavailable: (.*)/.exec(result.stderr);
      if (missing) noGpu(missing[1], context.skip);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/gpudedup: .*s\.npy\.partial: no space left on device \(ENOSPC, write\)/);
      expect(result.stderr).not.toMatch(/GPU backend failed|finishing on the CPU/);
      expect(result.stderr).toMatch(/partial output kept \(\d+ documents\)/);
      expect(existsSync(out)).toBe(false);
    } finally {
      disk.release();
    }
  });
});

describe('substrings on a full disk', () => {
  it('fails in one line naming the output, leaving no file behind on that disk', async (context) => {
    const { input } = setup();
    const path = join(tempDir(), 'disk');
    mkdirSync(path);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', path], { stdio: 'ignore' });
    } catch {
      return noDisk(context.skip);
    }
    try {
      writeFileSync(join(path, 'filler'), Buffer.alloc(65536 - 4096));
      const out = join(path, 'cut.jsonl');
      const result = await runCli(['substrings', input, '-o', out, '--min-length', '50']);
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toMatch(/^gpudedup: .*cut\.jsonl.*: no space left on device \(ENOSPC, write\)$/);
      expect(readdirSync(path)).toEqual(['filler']);
    } finally {
      execFileSync('umount', [path]);
    }
  });
});

/** Mounting a tmpfs needs root: CI runs as root, so there this fails instead of skipping. */
function noDisk(skip: (note: string) => never): never {
  const message = 'cannot mount a small tmpfs to fill (needs root)';
  if (!['', '0', 'false'].includes((process.env.CI ?? '').toLowerCase()))
    throw new Error(`${message} (CI is set, so this fails instead of skipping)`);
  return skip(message);
}

describe('read options that change rows are part of a signature file', () => {
  it('refuses --resume and --signatures with another --text-field, naming it', async () => {
    const { dir, input } = setup();
    writeFileSync(
      input,
      lines.map((l) => JSON.stringify({ ...JSON.parse(l), body: JSON.parse(l).text.slice(0, 50) })).join('\n') + '\n',
    );
    const out = join(dir, 's.npy');
    expect((await runCli(['sign', input, '-o', out, ...cpu, '-q'])).code).toBe(0);
    const other = await runCli([
      'dedup',
      input,
      '--signatures',
      out,
      '--clusters',
      join(dir, 'c.csv'),
      '--text-field',
      'body',
      '-q',
    ]);
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/different parameters .*--text-field: text vs body/);
    // An interrupted run's checkpoint, resumed with another text field.
    writeFileSync(`${out}.partial`, readFileSync(out));
    writeFileSync(`${out}.json.partial`, readFileSync(`${out}.json`, 'utf8').split('\n').slice(0, 3).join('\n') + '\n');
    const resumed = await runCli(['sign', input, '-o', out, ...cpu, '--text-field', 'body', '--resume', '-q']);
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toMatch(
      /cannot resume, the interrupted run used different parameters: --text-field: text vs body/,
    );
  });
});

describe('input mistakes', () => {
  it('names an empty directory, an unknown keep field, a repeated id and a JSON array', async () => {
    const { dir, input } = setup();
    mkdirSync(join(dir, 'empty'));
    const empty = await runCliHere(['dedup', join(dir, 'empty'), '-o', join(dir, 'o.jsonl'), ...cpu]);
    expect(empty.stderr).toMatch(/empty: the directory holds no input files/);
    const keep = await runCliHere(['dedup', input, '-o', join(dir, 'o.jsonl'), '--keep', 'field:quality', ...cpu]);
    expect([keep.code, keep.stderr]).toEqual([
      1,
      expect.stringMatching(/--keep field:quality: no document has a numeric "quality" field/),
    ]);
    const twice = await runCliHere(['dedup', input, input, '-o', join(dir, 'o.jsonl'), ...cpu]);
    expect(twice.stderr).toMatch(/a\.jsonl:1: id "0BSD" repeats the id of .*a\.jsonl:1; ids must be unique/);
    writeFileSync(join(dir, 'n.jsonl'), '{"text":"first document here"}\n{"id":"1","text":"second"}\n');
    const lineId = await runCliHere(['sign', join(dir, 'n.jsonl'), '-o', join(dir, 'n.npy'), ...cpu]);
    expect(lineId.stderr).toMatch(/n\.jsonl:2: id "1" repeats the id of .*n\.jsonl:1/);
    writeFileSync(
      join(dir, 'arr.json'),
      JSON.stringify(
        lines.slice(0, 4).map((l) => JSON.parse(l)),
        null,
        2,
      ),
    );
    const array = await runCli(['sign', join(dir, 'arr.json'), '-o', join(dir, 'arr.npy'), ...cpu]);
    expect(array.stdout).toMatch(/signed 4 documents/);
    writeFileSync(join(dir, 'bad.json'), '[{"id": "a", "text": "x"}, 3]');
    expect((await runCliHere(['sign', join(dir, 'bad.json'), '-o', join(dir, 'b.npy'), ...cpu])).stderr).toMatch(
      /bad\.json: element 2: expected a JSON object/,
    );
    expect(existsSync(join(dir, 'o.jsonl'))).toBe(false);
  });

  it('takes --against one file per use, so the corpus after it stays the corpus', async () => {
    const { dir, input } = setup();
    const reference = join(dir, 'ref.jsonl');
    writeFileSync(
      reference,
      lines
        .slice(0, 2)
        .map((l) => JSON.stringify({ ...JSON.parse(l), id: `ref-${JSON.parse(l).id}` }))
        .join('\n') + '\n',
    );
    const result = await runCli(['dedup', '--against', reference, input, '-o', join(dir, 'o.jsonl'), ...cpu]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/documents in\s+30/);
    expect(result.stdout).toMatch(/contaminated\s+[1-9]/);
  });

  it('skips binary files with a count and their names; --strict refuses them', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'docs'));
    writeFileSync(
      join(dir, 'docs', 'a.txt'),
      lines
        .map((l) => JSON.parse(l).text)
        .slice(0, 2)
        .join('\n'),
    );
    writeFileSync(join(dir, 'docs', 'b.bin'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2, 3]));
    writeFileSync(
      join(dir, 'docs', 'c.txt'),
      Buffer.from(Array.from({ length: 400 }, (_, i) => (i % 3 === 0 ? 0xff : 0x41))),
    );
    const result = await runCli(['dedup', join(dir, 'docs'), '-o', join(dir, 'o.jsonl'), ...cpu]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/documents in\s+1\n/);
    expect(result.stdout).toMatch(/skipped\s+2 binary files \(.*b\.bin, .*c\.txt\)/);
    const strict = await runCli(['sign', join(dir, 'docs'), '-o', join(dir, 's.npy'), ...cpu, '--strict']);
    expect(strict.stderr).toMatch(/b\.bin: a binary file/);
  });
});

describe('messages and exits', () => {
  it('exits quietly when the reader of its output goes away', async () => {
    const { dir, input } = setup();
    const child = spawn(`node ${CLI} sign ${input} -o ${join(dir, 's.npy')} ${cpu.join(' ')} | head -c 1`, {
      shell: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    await new Promise((resolve) => child.on('close', resolve));
    expect(stderr).not.toMatch(/EPIPE|Unhandled/);
  });

  it('says so when a fresh run starts over the checkpoint of an interrupted one', async () => {
    const { dir, input } = setup();
    const out = join(dir, 's.npy');
    writeFileSync(`${out}.partial`, 'checkpoint');
    const result = await runCli(['sign', input, '-o', out, ...cpu]);
    expect(result.stderr).toMatch(
      /warning: starting afresh over the checkpoint of an interrupted run .*s\.npy\.partial.*--resume/,
    );
  });

  it('uses the singular for one', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'one.jsonl'), '{"id":"x","text":"just one document of a few words"}\n');
    const result = await runCli([
      'dedup',
      join(dir, 'one.jsonl'),
      '--clusters',
      join(dir, 'c.csv'),
      '--bands',
      '1',
      '--rows',
      '16',
      ...cpu,
    ]);
    expect(result.stdout).toMatch(/deduplicated 1 document →/);
    expect(result.stdout).toMatch(/1 band × 16 rows/);
  });
});
