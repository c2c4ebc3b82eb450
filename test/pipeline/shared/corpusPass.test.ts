import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_READ } from '../../../src/io/documents.js';
import { listInputFiles } from '../../../src/io/readDocuments.js';
import { DEDUP_UNIT_BYTES, dedupUnits } from '../../../src/pipeline/shared/corpusPass.js';
import { shardSource } from '../../../src/pipeline/sign/shardSources.js';

const dir = mkdtempSync(join(tmpdir(), 'gpudedup-corpus-pass-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A JSON Lines file of 5 MiB + 17 bytes, and the 2 MiB cuts of it both first passes read. */
function corpus(): { path: string; cuts: [number, number][] } {
  const line = `${JSON.stringify({ id: 'x', text: 'a few words of text '.repeat(20) })}\n`;
  const path = join(dir, 'c.jsonl');
  const size = 5 * 2 ** 20 + 17;
  writeFileSync(path, line.repeat(Math.ceil(size / line.length)).slice(0, size));
  expect(DEDUP_UNIT_BYTES).toBe(2 ** 21);
  return {
    path,
    cuts: [
      [0, 2 ** 21],
      [2 ** 21, 2 ** 22],
      [2 ** 22, size],
    ],
  };
}

describe("dedup's first pass", () => {
  it('reads a JSON Lines file in ranges of 2 MiB (fewer units: less work per document on the main thread)', async () => {
    const { path, cuts } = corpus();
    const ranges: [number, number][] = [];
    for await (const unit of dedupUnits(await listInputFiles([path], () => undefined))) {
      if (unit.kind !== 'range') throw new Error(`a ${unit.kind} unit`);
      ranges.push([unit.start, unit.end]);
    }
    expect(ranges).toEqual(cuts);
  });

  it("is sign --shard's too: its JSON Lines in the same 2 MiB units (at 512 KiB a 1 M half was 1,900)", async () => {
    const { path, cuts } = corpus();
    const files = await listInputFiles([path], () => undefined);
    const source = await shardSource(files, { index: 0, count: 1 }, DEFAULT_READ, () => undefined, true);
    expect([...source.units!.units()].map(({ unit }) => [unit.start, unit.end])).toEqual(cuts);
  });
});
