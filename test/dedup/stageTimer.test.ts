import { describe, expect, it } from 'vitest';
import { StageTimer } from '../../src/dedup/stageTimer.js';

describe('the stage timer', () => {
  it('keeps stages in the order they ended, sums a name timed twice, and times a stage that throws', async () => {
    const timer = new StageTimer();
    timer.add('a', 1);
    expect(await timer.time('b', () => 7)).toBe(7);
    timer.add('a', 2);
    await expect(timer.time('c', () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(timer.stages.map((s) => s.stage)).toEqual(['a', 'b', 'a', 'c']);
    const byName = timer.byName();
    expect(Object.keys(byName)).toEqual(['a', 'b', 'c']);
    expect(byName.a).toBe(3);
    expect(byName.c).toBeGreaterThanOrEqual(0);
  });
});
