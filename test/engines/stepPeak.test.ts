/**
 * Each phase's peak resident set (src/engines/stepPeak.ts): on Linux a reset
 * brings the high-water mark down to the present resident set, and a step
 * that touches 96 MiB reports a peak at least that much above it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { peakResidentBytes, resetPeakResident, withStepPeak } from '../../src/engines/stepPeak.js';

const MiB = 2 ** 20;
const residentBytes = (): number =>
  Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;

describe.runIf(process.platform === 'linux')('each step’s peak resident set', () => {
  it('a reset brings the mark to the present resident set; a step that touches 96 MiB peaks above it', async () => {
    expect(resetPeakResident()).toBe(true);
    expect(peakResidentBytes()!).toBeLessThan(residentBytes() + 16 * MiB);
    const before = residentBytes();
    let peak = 0;
    const filled = await withStepPeak(
      async () => {
        const touched = Buffer.alloc(96 * MiB, 7); // every page written
        return touched[0] + touched[touched.length - 1];
      },
      (bytes) => {
        peak = bytes;
      },
    );
    expect(filled).toBe(14);
    expect(peak).toBeGreaterThanOrEqual(before + 90 * MiB);
  });
});
