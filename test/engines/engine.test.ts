/**
 * The engine's own limit from `--memory-limit` (src/engines/engine.ts
 * bufferLimit): 70 % of the size in whole MB, no less than 256 MB or the size, decimal and binary units alike,
 * and a size it cannot read passed on unchanged for the engine to judge. Without `--memory-limit`, half the memory
 * available (defaultMemoryLimit), and DuckDB is given its share of that, not its own default of 80 % of the machine.
 */
import { totalmem } from 'node:os';
import { describe, expect, it } from 'vitest';
import { openDuckDb, runSteps } from '../../src/engines/duckdb.js';
import {
  availableMemory,
  BUFFER_SHARE,
  bufferLimit,
  defaultMemoryLimit,
  HOST_SETS_SHARE,
  hostSetBytes,
} from '../../src/engines/engine.js';

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
  it('with the exact pass on the host, gives its sets half of that share and the engine the rest, no less than the floor', () => {
    expect(HOST_SETS_SHARE).toBe(0.5);
    expect(hostSetBytes('3GB')).toBe(1050e6);
    expect(bufferLimit('3GB', hostSetBytes('3GB'))).toBe('1050MB');
    expect(hostSetBytes('1500MB')).toBe(525e6);
    expect(bufferLimit('1500MB', hostSetBytes('1500MB'))).toBe('525MB');
    expect(bufferLimit('600MB', hostSetBytes('600MB'))).toBe('256MB');
    expect(hostSetBytes('lots')).toBeUndefined();
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

describe("a host step's room in DuckDB's memory_limit", () => {
  it('is all of hostBytes while the host decides, then what its sets hold', async () => {
    const { connection, close } = await openDuckDb({ memoryLimit: '3GB' });
    const limit = async (): Promise<string> =>
      String(
        (await (await connection.runAndReadAll(`SELECT current_setting('memory_limit') AS m`)).getRowObjectsJS())[0].m,
      );
    try {
      const before = await limit();
      let during = '';
      const options = {
        memoryLimit: '3GB',
        hostBytes: hostSetBytes('3GB'),
        hostHeld: () => 200e6,
        decideByText: async (pairs: { l: ArrayLike<number> }) => {
          during = await limit();
          return new Uint8Array(pairs.l.length).fill(1);
        },
      };
      const columns = { l: 1, r: 2, xf: 0, xs: 0, xb: 9, yf: 0, ys: 9, yb: 9 };
      const sql = `SELECT ${Object.entries(columns).map(([name, value]) => `CAST(${value} AS DOUBLE) AS ${name}`)}`;
      const rule = { acceptFrom: 3, rejectUpTo: 0, threshold: 0.5 };
      await runSteps(connection, [{ name: 'passed', sql, host: rule }], options);
      const passed = await (await connection.runAndReadAll('SELECT l, r FROM passed')).getRowObjectsJS();
      expect(passed).toEqual([{ l: 1n, r: 2n }]);
      // 2,100 MB at first; 1,050 MB while the sets are made; 2,100 − 200 MB after (as DuckDB prints them).
      expect([before, during, await limit()]).toEqual(['1.9 GiB', '1001.3 MiB', '1.7 GiB']);
    } finally {
      close();
    }
  });
});
