/**
 * The engine's own limit from `--memory-limit` (src/engines/engine.ts
 * bufferLimit): 70 % of the size in whole MB, no less than 256 MB or the size, decimal and binary units alike,
 * and a size it cannot read passed on unchanged for the engine to judge.
 */
import { describe, expect, it } from 'vitest';
import { BUFFER_SHARE, bufferLimit } from '../../src/engines/engine.js';

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
