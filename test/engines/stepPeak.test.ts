/**
 * Each phase's peak resident set (src/engines/stepPeak.ts): a step that holds
 * 96 MiB for a while, off the event loop's thread as the engine's queries run,
 * peaks at least at the resident set it reached while holding them, and the
 * process's high-water mark is left alone (what /usr/bin/time reports). Not
 * "96 MiB above its start": with isolate: false the files before this one
 * leave garbage that a collection may free during the step (a whole npm test
 * once saw the resident set 2 MB lower at the peak than before the step, and
 * a helper's run 68 KB lower at the peak than while the step held its buffer).
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { residentBytes, withStepPeak } from '../../src/engines/stepPeak.js';

const MiB = 2 ** 20;
const highWater = (): number =>
  Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;

describe.runIf(process.platform === 'linux')('each step’s peak resident set', () => {
  it('a step that holds 96 MiB for 200 ms peaks at least at its resident set while holding them; the high-water mark stays', async () => {
    const markBefore = highWater();
    let holding = 0;
    let peak = 0;
    const held = await withStepPeak(
      async () => {
        const touched = Buffer.alloc(96 * MiB, 7); // every page written
        await sleep(200);
        holding = residentBytes()!;
        return touched[0] + touched[touched.length - 1];
      },
      (bytes) => {
        peak = bytes;
      },
    );
    expect(held).toBe(14);
    expect(holding).toBeGreaterThanOrEqual(96 * MiB);
    // Within 8 MiB: between `holding` and the last sample a collection of earlier files' garbage can return pages
    // (a whole run once saw the peak 68 KB below `holding`); a sampler that missed the step would be ~96 MiB below.
    expect(peak).toBeGreaterThanOrEqual(holding - 8 * MiB);
    // Linux updates the high-water mark lazily (at unmaps and when read, from the resident set then), so a sample
    // taken before pages were given back can stand a little above it (base once: 156 KB).
    expect(highWater()).toBeGreaterThanOrEqual(Math.max(markBefore, peak - 4 * MiB));
  });

  it('steps inside a step (sampled by one timer) each get their peak, and the outer step sees the inner one’s', async () => {
    let holding = 0;
    const peaks: Record<string, number> = {};
    const keep = (name: string) => (bytes: number) => {
      peaks[name] = bytes;
    };
    await withStepPeak(async () => {
      await withStepPeak(async () => undefined, keep('before'));
      await withStepPeak(async () => {
        const touched = Buffer.alloc(64 * MiB, 3);
        await sleep(150);
        holding = residentBytes()!;
        return touched[0];
      }, keep('inner'));
    }, keep('outer'));
    expect(Object.keys(peaks).sort()).toEqual(['before', 'inner', 'outer']);
    expect(peaks.inner).toBeGreaterThanOrEqual(holding - 8 * MiB);
    expect(peaks.outer).toBeGreaterThanOrEqual(peaks.inner);
  });
});
