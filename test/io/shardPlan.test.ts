import { describe, expect, it } from 'vitest';
import { mayBeSplit, planShards, type Piece, type PlannedFile } from '../../src/io/shardPlan.js';

/** Every file, row group and byte covered exactly once, in input order across shards 0, 1, …. */
function checkCovers(files: readonly PlannedFile[], plan: Piece[][]): void {
  const flat = plan.flat();
  let file = 0;
  let group = 0;
  let byte = 0;
  for (const piece of flat) {
    if (piece.file !== file) {
      expect(piece.file).toBe(file + 1); // the previous file was finished
      const prev = files[file];
      if (prev.split.kind === 'groups' && prev.split.sizes.length > 0) expect(group).toBe(prev.split.sizes.length);
      if (prev.split.kind === 'bytes' && prev.size > 0) expect(byte).toBe(prev.size);
      file = piece.file;
      group = 0;
      byte = 0;
    }
    if (piece.kind === 'groups') {
      expect(piece.first).toBe(group);
      expect(piece.end).toBeGreaterThan(piece.first);
      group = piece.end;
    } else if (piece.kind === 'bytes') {
      expect(piece.start).toBe(byte);
      expect(piece.end).toBeGreaterThan(piece.start);
      byte = piece.end;
    }
  }
  expect(file).toBe(files.length - 1);
}

const load = (files: readonly PlannedFile[], pieces: readonly Piece[]): number =>
  pieces.reduce((sum, p) => {
    const f = files[p.file];
    if (p.kind === 'bytes') return sum + p.end - p.start;
    if (p.kind === 'groups' && f.split.kind === 'groups')
      return sum + f.split.sizes.slice(p.first, p.end).reduce((a, b) => a + b, 0);
    return sum + f.size;
  }, 0);

describe('planShards', () => {
  it('gives many small files whole, in contiguous runs balanced by size', () => {
    let state = 7;
    const files: PlannedFile[] = Array.from({ length: 200 }, () => ({
      size: 1000 + ((state = (state * 1103515245 + 12345) % 2 ** 31) % 5000),
      split: { kind: 'whole' },
    }));
    const total = files.reduce((s, f) => s + f.size, 0);
    for (const count of [1, 2, 3, 4, 7]) {
      const plan = planShards(files, count);
      checkCovers(files, plan);
      expect(plan.flat().every((p) => p.kind === 'file')).toBe(true);
      for (const pieces of plan) expect(Math.abs(load(files, pieces) - total / count)).toBeLessThanOrEqual(6000); // at most one file off
    }
  });

  it('cuts one big JSON Lines file at the byte points ⌊i·T/N⌋', () => {
    const files: PlannedFile[] = [{ size: 1_000_003, split: { kind: 'bytes' } }];
    const plan = planShards(files, 4);
    checkCovers(files, plan);
    expect(plan.map((p) => p.map((q) => (q.kind === 'bytes' ? [q.start, q.end] : [])))).toEqual([
      [[0, 250000]],
      [[250000, 500001]],
      [[500001, 750002]],
      [[750002, 1000003]],
    ]);
  });

  it('gives a Parquet file its row groups by the middle of their bytes (spread over the file, footer included)', () => {
    const sizes = [100, 100, 100, 100, 100, 100, 100, 100];
    const files: PlannedFile[] = [{ size: 900, split: { kind: 'groups', sizes } }];
    const plan = planShards(files, 4);
    checkCovers(files, plan);
    expect(plan).toEqual([
      [{ kind: 'groups', file: 0, first: 0, end: 2 }],
      [{ kind: 'groups', file: 0, first: 2, end: 4 }],
      [{ kind: 'groups', file: 0, first: 4, end: 6 }],
      [{ kind: 'groups', file: 0, first: 6, end: 8 }],
    ]);
  });

  it('mixes whole files, groups and byte ranges, and leaves extra shards empty', () => {
    const files: PlannedFile[] = [
      { size: 10, split: { kind: 'whole' } },
      { size: 5000, split: { kind: 'bytes' } },
      { size: 0, split: { kind: 'whole' } },
      { size: 3000, split: { kind: 'groups', sizes: [900, 900, 900] } },
      { size: 20, split: { kind: 'whole' } },
    ];
    for (const count of [1, 2, 5, 16, 64]) checkCovers(files, planShards(files, count));
    const tiny = planShards([{ size: 3, split: { kind: 'whole' } }], 4);
    expect(tiny.map((p) => p.length)).toEqual([0, 0, 1, 0]); // cuts 0, 0, 1, 2: the middle byte 1 is shard 3's
    expect(planShards([], 3)).toEqual([[], [], []]);
  });

  it('looks into a file only when it is more than an eighth of a shard and a cut falls inside it', () => {
    expect(mayBeSplit(0, 200, 1600, 1)).toBe(false);
    expect(mayBeSplit(0, 50, 1600, 4)).toBe(false); // small
    expect(mayBeSplit(380, 51, 1600, 4)).toBe(true); // holds the cut at 400
    expect(mayBeSplit(300, 100, 1600, 4)).toBe(false); // ends at the cut
    expect(mayBeSplit(400, 300, 1600, 4)).toBe(false); // starts at it, ends before the next
    expect(mayBeSplit(1500, 100, 1600, 4)).toBe(false); // in the last shard
  });
});
