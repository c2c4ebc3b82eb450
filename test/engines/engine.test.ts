/**
 * The engine's own limit from `--memory-limit` (src/engines/engine.ts
 * bufferLimit): 70 % of the size in whole MB, no less than 256 MB or the size, decimal and binary units alike,
 * and a size it cannot read passed on unchanged for the engine to judge. Without `--memory-limit`, half the memory
 * available (defaultMemoryLimit), and DuckDB is given its share of that, not its own default of 80 % of the machine.
 */
import { totalmem } from 'node:os';
import { describe, expect, it } from 'vitest';
import { openDuckDb } from '../../src/engines/duckdb.js';
import { availableMemory, BUFFER_SHARE, bufferLimit, defaultMemoryLimit } from '../../src/engines/engine.js';

/** DuckDB's memory_limit as it reports it (e.g. "8.4 GB"), opened with these options. */
async function duckDbLimit(memoryLimit?: string): Promise<string> {
  const { connection, close } = await openDuckDb({ memoryLimit });
  try {
    const rows = await (
      await connection.runAndReadAll(`SELECT current_setting('memory_limit') AS m`)
    ).getRowObjectsJS();
    return String(rows[0].m);
  } finally {
    close();
  }
}

describe('bufferLimit', () => {
  it('gives the engine 70 % of --memory-limit in MB', () => {
    expect(BUFFER_SHARE).toBe(0.7);
    expect(bufferLimit('3GB')).toBe('2100MB');
    expect(bufferLimit('256MB')).toBe('256MB'); // the floor
    expect(bufferLimit('300MB')).toBe('256MB');
    expect(bufferLimit('100MB')).toBe('100MB'); // never more than the limit
    expect(bufferLimit('400MB')).toBe('280MB');
    expect(bufferLimit('1GiB')).toBe('752MB');
    expect(bufferLimit(' 2.5 gb ')).toBe('1750MB');
    expect(bufferLimit('1000000000')).toBe('700MB');
  });
  it('passes on what it cannot read', () => {
    expect(bufferLimit('lots')).toBe('lots');
    expect(bufferLimit('3 GBs')).toBe('3 GBs');
  });
});

describe('the default --memory-limit', () => {
  it('is half the memory available, in MB, and never more than the machine has', () => {
    expect(defaultMemoryLimit(24 * 2 ** 30)).toBe('12884MB');
    expect(defaultMemoryLimit(4e9)).toBe('2000MB');
    expect(bufferLimit(defaultMemoryLimit(24 * 2 ** 30))).toBe('9019MB');
    expect(availableMemory()).toBeGreaterThan(0);
    expect(availableMemory()).toBeLessThanOrEqual(totalmem());
  });
  it("sets DuckDB's memory_limit to its share of the default when none is given", async () => {
    const byDefault = await duckDbLimit();
    expect(byDefault).toBe(await duckDbLimit(defaultMemoryLimit()));
    expect(byDefault).not.toBe(await duckDbLimit('1GB'));
    expect(await duckDbLimit('1GB')).toBe('667.5 MiB'); // 700 MB, as DuckDB prints it
  });
});
