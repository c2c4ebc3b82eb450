// The kept lines copied on stage workers by byte ranges (copyKept.ts, rangeCopy.ts) are the bytes this thread copies
// line by line (writeKept.ts): several files, a byte order mark, CRLF, a last line without a line feed, a file with no
// kept line, pieces of one line and of many; compressed inputs are left to this thread.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeStageWorkers, type RangeCopyPool } from '../../../src/dedup/node/stageWorkers.js';
import { openKeptDocuments } from '../../../src/formats/keptDocuments.js';
import { copyKeptOnWorkers } from '../../../src/pipeline/dedup/copyKept.js';
import { runDedup } from '../../../src/pipeline/dedup/dedup.js';
import { writeDedupOutputs } from '../../../src/pipeline/dedup/writeOutputs.js';
import { SILENT_HOOKS } from '../../../src/pipeline/shared/config.js';
import { tempDir } from '../../support/cli.js';
import { testDedupConfig } from '../../support/dedupConfig.js';

const dir = tempDir();
const texts = ['the quick brown fox jumps over the lazy dog', 'a stitch in time saves nine', 'to be or not to be'];
/** Lines of JSON, a third of them repeating an earlier text (removed as exact duplicates). */
function lines(name: string, n: number): string[] {
  return Array.from({ length: n }, (_, i) => {
    const text = i % 3 === 2 ? texts[i % texts.length] : `${name} document ${i}: ${'word '.repeat(i % 40)}${i * 7919}`;
    return JSON.stringify({ id: `${name}-${i}`, text });
  });
}
const files = {
  // A byte order mark, CRLF line ends, and a last line without its line feed.
  'a.jsonl': '\ufeff' + lines('a', 400).join('\r\n'),
  'b.jsonl': lines('b', 300).join('\n') + '\n',
  // Every text an earlier one's: nothing kept.
  'c.jsonl': Array.from({ length: 20 }, (_, i) => JSON.stringify({ id: `c-${i}`, text: texts[2] })).join('\n') + '\n',
  'd.jsonl': lines('d', 50).join('\n'),
};
for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
const inputs = Object.keys(files).map((name) => join(dir, name));
const pool = nodeStageWorkers(3);
afterAll(() => pool.destroy());

/** The pool, counting its requests. */
function counted(): RangeCopyPool & { requests: number } {
  const counter = {
    size: pool.copies.size,
    requests: 0,
    request: (worker: number, request: Parameters<RangeCopyPool['request']>[1]) => {
      counter.requests++;
      return pool.copies.request(worker, request);
    },
  };
  return counter;
}

async function keptFile(corpus: readonly string[], name: string, keptWorkers?: RangeCopyPool): Promise<Buffer> {
  const outcome = await runDedup({ ...testDedupConfig(corpus), threads: 1 });
  const out = join(dir, name);
  const progress = SILENT_HOOKS.stage('writing', 0, 'bytes');
  await writeDedupOutputs(outcome, { out }, testDedupConfig(corpus).read, progress, { keptWorkers });
  return readFileSync(out);
}

describe('kept lines copied on stage workers', () => {
  it('gives the bytes this thread copies, a line feed after a last line without one', async () => {
    const copies = counted();
    const here = await keptFile(inputs, 'here.jsonl');
    const there = await keptFile(inputs, 'there.jsonl', copies);
    expect(copies.requests).toBe(3); // a, b and d: c has no kept line
    expect(there.equals(here)).toBe(true);
    expect(here[0]).toBe(0x7b); // the byte order mark is not part of the first line
    expect(here.toString()).toContain('"id":"a-399"');
    expect(here.toString()).toContain('\r\n');
    expect(here.toString()).not.toContain('"id":"a-5"'); // an exact duplicate of a-2
  });

  it('gives the same bytes in pieces of any size', async () => {
    const here = await keptFile(inputs, 'pieces-here.jsonl');
    const outcome = await runDedup({ ...testDedupConfig(inputs), threads: 1 });
    for (const pieceBytes of [1, 200, 5000]) {
      const path = join(dir, `pieces-${pieceBytes}.jsonl`);
      const out = await openKeptDocuments(path, outcome.files);
      const target = out.positionalPath?.();
      if (target === undefined) throw new Error('a plain JSON Lines output takes lines at their offsets');
      const copies = counted();
      const progress = SILENT_HOOKS.stage('writing', 0, 'bytes');
      const { kept } = outcome.assignment;
      expect(await copyKeptOnWorkers(outcome.files, outcome.records!, kept, target, copies, progress, pieceBytes)).toBe(
        true,
      );
      await out.commit();
      expect(readFileSync(path).equals(here), `pieces of ${pieceBytes} bytes`).toBe(true);
      if (pieceBytes === 1) expect(copies.requests).toBeGreaterThan(200); // a request a run of kept lines
    }
  });

  it('leaves a compressed input and a compressed output to this thread', async () => {
    const gz = join(dir, 'b.jsonl.gz');
    writeFileSync(gz, gzipSync(files['b.jsonl']));
    const copies = counted();
    const here = await keptFile([inputs[0], gz], 'gz-here.jsonl');
    expect((await keptFile([inputs[0], gz], 'gz-there.jsonl', copies)).equals(here)).toBe(true);
    expect((await keptFile(inputs, 'out.jsonl.gz', copies)).length).toBeGreaterThan(0);
    expect(copies.requests).toBe(0);
  });
});
