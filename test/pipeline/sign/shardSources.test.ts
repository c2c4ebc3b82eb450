import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_READ } from '../../../src/io/documents.js';
import { listInputFiles } from '../../../src/io/readDocuments.js';
import { DEDUP_UNIT_BYTES } from '../../../src/pipeline/shared/corpusPass.js';
import { shardSource } from '../../../src/pipeline/sign/shardSources.js';

const dir = mkdtempSync(join(tmpdir(), 'gpudedup-shard-sources-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("sign --shard's units", () => {
  it("cut its JSON Lines as dedup's first pass does, 2 MiB a unit (fewer units: less work on the main thread)", async () => {
    const line = `${JSON.stringify({ id: 'x', text: 'a few words of text '.repeat(20) })}\n`;
    const path = join(dir, 'c.jsonl');
    const size = 5 * 2 ** 20 + 17;
    writeFileSync(path, line.repeat(Math.ceil(size / line.length)).slice(0, size));
    const files = await listInputFiles([path], () => undefined);
    const source = await shardSource(files, { index: 0, count: 1 }, DEFAULT_READ, () => undefined, true);
    const ranges = [...source.units!.units()].map(({ unit }) => [unit.start, unit.end]);
    expect(DEDUP_UNIT_BYTES).toBe(2 ** 21);
    expect(ranges).toEqual([
      [0, 2 ** 21],
      [2 ** 21, 2 ** 22],
      [2 ** 22, size],
    ]);
  });
});
