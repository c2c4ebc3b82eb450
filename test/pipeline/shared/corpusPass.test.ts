import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listInputFiles } from '../../../src/io/readDocuments.js';
import { DEDUP_UNIT_BYTES, dedupUnits } from '../../../src/pipeline/shared/corpusPass.js';

const dir = mkdtempSync(join(tmpdir(), 'gpudedup-corpus-pass-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("dedup's first pass", () => {
  it('reads a JSON Lines file in ranges of 2 MiB (fewer units: less work per document on the main thread)', async () => {
    const line = `${JSON.stringify({ id: 'x', text: 'a few words of text '.repeat(20) })}\n`;
    const path = join(dir, 'c.jsonl');
    const size = 5 * 2 ** 20 + 17;
    writeFileSync(path, line.repeat(Math.ceil(size / line.length)).slice(0, size));
    const ranges: [number, number][] = [];
    for await (const unit of dedupUnits(await listInputFiles([path], () => undefined))) {
      if (unit.kind !== 'range') throw new Error(`a ${unit.kind} unit`);
      ranges.push([unit.start, unit.end]);
    }
    expect(DEDUP_UNIT_BYTES).toBe(2 ** 21);
    expect(ranges).toEqual([
      [0, 2 ** 21],
      [2 ** 21, 2 ** 22],
      [2 ** 22, size],
    ]);
  });
});
